import { campaignContext } from "./campaign/errors";
import type { AwardSource, CampaignJournal, CampaignSummary, DryRunOptions } from "./campaign/types";
import type { HmacBackend } from "./crypto/backend";
import { createSigning } from "./signing";

/** What differs between the builds of `public-hub-sdk/server`: the crypto, and whether a journal can be a file. */
export interface ServerRuntime {
  /** `node:crypto` (Node, Bun, Deno) or WebCrypto (edge workers and the rest). */
  backend: HmacBackend;
  /** The value of `signerImplementation`. */
  name: "node:crypto" | "webcrypto";
  /** Opens a journal given as a path, for `hub`; only the Node build has a file system. */
  openJournal?: ((path: string, hub: string | undefined) => Promise<Required<CampaignJournal>>) | undefined;
}

/** The functions of `public-hub-sdk/server` for one runtime; each build exports them under its own documentation. */
export function serverApi(runtime: ServerRuntime) {
  const signing = createSigning(runtime.backend);
  return {
    ...signing,
    async dryRunAwards(awards: AwardSource, options: DryRunOptions = {}): Promise<CampaignSummary> {
      // Loaded on first use, like awardMany's campaign code.
      const campaign = await import("./campaign/campaign");
      const { openJournal } = runtime;
      const hub = typeof options?.hub === "string" ? options.hub : undefined;
      return campaign.dryRunAwards(awards, options, { ...campaignContext, openJournal: openJournal && ((path) => openJournal(path, hub)) });
    },
  };
}
