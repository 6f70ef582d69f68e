// Type-checked by `tsc --noEmit` in `npm test`, never run; test/readme/readme.test.ts checks that
// README.md shows exactly the code below the marker.
// ---- README.md ----
// hub-schemas.ts: what your hub sends, one schema per operation you read
import * as z from "zod";

export const schemas = {
  hub: z.object({ slug: z.string(), name: z.string() }),
  holder: z.object({ wallet: z.string(), bits: z.number() }),
  leaderboard: z.object({ entries: z.array(z.object({ rank: z.number(), wallet: z.string(), staked: z.number() })) }),
};
