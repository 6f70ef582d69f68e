// Type tests (vitest's typecheck mode, in `npm test`; `tsc --noEmit` checks them too): an award
// literal is exact, and the zod schema's input and output are AwardInput.
import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import type { awardSchema, AwardInput } from "public-hub-sdk/server";

describe("AwardInput types", () => {
  it("refuses a misspelt field in a literal at compile time, and the schema's output is an AwardInput", () => {
    const send = (award: AwardInput) => award;
    // @ts-expect-error `reson` is not a field of an award
    send({ wallet: "w", amount: 1, reson: "typo", ref: "r" });
    // @ts-expect-error an award has amount or kind, never both
    send({ wallet: "w", amount: 1, kind: "k", ref: "r" });
    // @ts-expect-error a kind award has no reason
    send({ wallet: "w", kind: "k", reason: "why", ref: "r" });
    expectTypeOf<z.output<typeof awardSchema>>().toEqualTypeOf<AwardInput>();
    expectTypeOf<z.input<typeof awardSchema>>().toEqualTypeOf<AwardInput>();
  });
});
