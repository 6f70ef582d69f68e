// Type-checked by tsc with module resolution node16 and bundler against the packed package.
import { HubClient, HubApiError, type HolderStatus, type Leaderboard, leaderboardRows } from "public-hub-sdk";
import { HubServerClient, signRequest, type AwardInput, type HubServerClientOptions } from "public-hub-sdk/server";
import { createHubMock, type HubMockOptions } from "public-hub-sdk/mock";

const hub = new HubClient({ baseUrl: "https://h.example/api/v1", clientId: "c", hub: "alpha" });
const holder: Promise<HolderStatus> = hub.getHolder("0xabc");
const board: Promise<Leaderboard> = hub.getLeaderboard({ limit: 3 });
const options: HubServerClientOptions = { baseUrl: "https://h.example", clientId: "c", hub: "alpha", secret: "s" };
const award: AwardInput = { wallet: "0xabc", kind: "daily-login", ref: "r" };
const backend: HubClient = new HubServerClient(options);
const signature: Promise<string> = signRequest({ secret: "s", timestamp: "1", method: "POST", path: "/x", body: "" });
const mockOptions: HubMockOptions = { errorFormat: "problem" };
const handlers = createHubMock(mockOptions).handlers;
const isApiError = (error: unknown): error is HubApiError => error instanceof HubApiError;
export { holder, board, award, backend, signature, handlers, isApiError, leaderboardRows };
