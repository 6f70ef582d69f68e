// CommonJS flavour of types-check.mts (checked under node16: resolves the require/.d.cts types).
// The mock is left out here: msw's own .d.ts cannot be required from CommonJS under node16.
import { HubClient, HubApiError, type HolderStatus, type Leaderboard, leaderboardRows } from "public-hub-sdk";
import { HubServerClient, signRequest, type AwardInput, type HubServerClientOptions } from "public-hub-sdk/server";

const hub = new HubClient({ baseUrl: "https://h.example/api/v1", clientId: "c", hub: "alpha" });
const holder: Promise<HolderStatus> = hub.getHolder("0xabc");
const board: Promise<Leaderboard> = hub.getLeaderboard({ limit: 3 });
const options: HubServerClientOptions = { baseUrl: "https://h.example", clientId: "c", hub: "alpha", secret: "s" };
const award: AwardInput = { wallet: "0xabc", kind: "daily-login", ref: "r" };
const backend: HubClient = new HubServerClient(options);
const signature: Promise<string> = signRequest({ secret: "s", timestamp: "1", method: "POST", path: "/x", body: "" });
const isApiError = (error: unknown): error is HubApiError => error instanceof HubApiError;
export { holder, board, award, backend, signature, isApiError, leaderboardRows };
