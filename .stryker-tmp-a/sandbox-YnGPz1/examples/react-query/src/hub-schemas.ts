/**
 * The hub's response shapes, declared once: the app's client takes them (every read and every
 * `useQuery` is typed by them), and its tests hand the same module to `createHubMock`.
 */
// @ts-nocheck

import * as z from "zod";
import type { HubClient } from "public-hub-sdk";

export const schemas = {
  hub: z.object({ slug: z.string(), name: z.string() }),
  leaderboard: z.object({ entries: z.array(z.object({ rank: z.number(), wallet: z.string(), staked: z.number() })) }),
  holder: z.object({ wallet: z.string(), bits: z.number() }),
};

/** The client of this app: a `HubClient` typed by `schemas`. */
export type Hub = HubClient<typeof schemas>;
