/**
 * The app's declared response shapes, in one module: its clients take them (so `balance` is a
 * number, not `unknown`), and its tests hand them to `createHubMock`, which fails a test whose
 * mock data drift from them.
 */
// @ts-nocheck

import * as z from "zod";

export const schemas = {
  leaderboard: z.object({ entries: z.array(z.object({ rank: z.number(), wallet: z.string(), staked: z.number() })) }),
  award: z.object({ ref: z.string(), balance: z.number(), duplicate: z.boolean() }),
};
