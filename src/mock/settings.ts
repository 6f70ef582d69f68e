import { HubValidationError } from "../core/errors";
import { parseHubProfile } from "../core/profile";
import type { HubPaging, HubProfile, HubSignal } from "../core/types/profile";
import type { HubMockOptions, MockDuplicateStyle } from "./types";

/** How the mock answers awards: the status of an applied one, and the signals of a repeat and of a conflict. */
export interface AwardDialect {
  status: number;
  /** A repeat with the same parameters. A profile's `"indistinguishable"` is the fresh award's status alone. */
  duplicate: HubSignal;
  /** A repeat with other parameters; none: it is a duplicate too (the `"flag"` style). */
  conflict: HubSignal | undefined;
}

/** The options with their defaults, the profile's fields where no option was given. */
export type MockSettings = Required<Omit<HubMockOptions, "hubs" | "keys" | "clockOffsetMs" | "profile" | "leaderboardFormat" | "envelope" | "duplicateStyle" | "rateLimit" | "rateLimitHeaders" | "requestIdHeader">> & {
  /** None: the profiled hub sends no request id. */
  requestIdHeader: string | undefined;
  envelope: string | undefined;
  award: AwardDialect;
  rateLimit: number | undefined;
  rateLimitHeaders: NonNullable<HubProfile["rateLimit"]>;
  leaderboard: { rows: string; pages: HubPaging };
};

// A 409 declaring no code: the body holds the mock's own (`ref_conflict`, `duplicate_ref`) where the format has a place for codes.
const REF_CONFLICT: HubSignal = { status: 409 };

/** Each `duplicateStyle` as the signals a profile would declare. */
const STYLES: Record<MockDuplicateStyle, Omit<AwardDialect, "status">> = {
  flag: { duplicate: { status: 200, field: { name: "duplicate", value: true } }, conflict: undefined },
  "replay-header": { duplicate: { status: 200, header: { name: "Idempotent-Replayed", value: "true" } }, conflict: REF_CONFLICT },
  "409": { duplicate: { status: 409 }, conflict: REF_CONFLICT },
  "208": { duplicate: { status: 208 }, conflict: REF_CONFLICT },
};

/** The mock's settings: an option given wins over the profile's field, which wins over the default. */
export function settingsOf(options: HubMockOptions, baseUrl: string): MockSettings {
  const profile: HubProfile = options.profile ? parseHubProfile(options.profile) : { version: 1 };
  const status = profile.award?.status ?? 200;
  const { duplicate: declared, conflict } = profile.award ?? {};
  // A style sets both signals, as it always did.
  const award: AwardDialect = options.duplicateStyle
    ? { status, ...STYLES[options.duplicateStyle] }
    : {
        status,
        duplicate: declared === undefined ? STYLES.flag.duplicate : declared === "indistinguishable" ? { status } : declared,
        // No duplicate declared: the "flag" style's, where a ref with other parameters is a duplicate too;
        // a conflict "indistinguishable" from a repeat is answered as the repeat is.
        conflict: conflict === "indistinguishable" ? undefined : (conflict ?? (declared === undefined ? undefined : REF_CONFLICT)),
      };
  const rows = options.leaderboardFormat === undefined ? (profile.leaderboard?.rows ?? "entries") : options.leaderboardFormat === "array" ? "" : "entries";
  const pages = profile.leaderboard?.pages ?? "none";
  // A bare array has no place for a page's cursor or count; only a `Link` header pages it.
  if (rows === "" && pages !== "none" && pages !== "link") {
    throw new HubValidationError({ what: "hub profile", issues: [{ path: ["leaderboard", "pages"], code: "invalid_value", message: `a bare-array leaderboard (rows "") pages only by "link" or "none", not "${pages}"` }] });
  }
  return {
    baseUrl,
    errorFormat: options.errorFormat ?? profile.errors ?? "nested",
    signatureFailureStatus: options.signatureFailureStatus ?? 401,
    retryAfterFormat: options.retryAfterFormat ?? "seconds",
    leaderboard: { rows, pages },
    leaderboardLimit: options.leaderboardLimit ?? { default: 10, max: 100 },
    sendDateHeader: options.sendDateHeader ?? true,
    kindPoints: options.kindPoints ?? { "daily-login": 5 },
    schemas: options.schemas ?? {},
    responses: options.responses ?? {},
    envelope: options.envelope ?? profile.envelope,
    award,
    rateLimit: options.rateLimit,
    rateLimitHeaders: { ...profile.rateLimit, headers: options.rateLimitHeaders ?? profile.rateLimit?.headers ?? "ietf" },
    requestIdHeader: options.requestIdHeader ?? (profile.requestIdHeader === null ? undefined : (profile.requestIdHeader ?? "x-request-id")),
    requestLog: options.requestLog ?? 1000,
  };
}
