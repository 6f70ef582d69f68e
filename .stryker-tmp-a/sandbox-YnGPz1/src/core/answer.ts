/**
 * Reading what a server sent, by the standards it follows, without ever throwing on it: the body
 * (JSON whatever the content-type says, an envelope unwrapped), an error body (RFC 9457 problem
 * details and the common shapes), the request id, the rate-limit fields (`Retry-After`, the IETF
 * `RateLimit` fields, `X-RateLimit-*`) and whether an award's answer says "duplicate".
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { apiError, fieldPath, HubResponseError, HubSchemaError, type ValidationIssue } from "./errors";
import type { StandardSchemaV1 } from "./types/standard-schema";
type Json = Record<string, unknown>;
export const isObject = stryMutAct_9fa48("0") ? () => undefined : (stryCov_9fa48("0"), (() => {
  const isObject = (value: unknown): value is Json => stryMutAct_9fa48("3") ? typeof value === "object" && value !== null || !Array.isArray(value) : stryMutAct_9fa48("2") ? false : stryMutAct_9fa48("1") ? true : (stryCov_9fa48("1", "2", "3"), (stryMutAct_9fa48("5") ? typeof value === "object" || value !== null : stryMutAct_9fa48("4") ? true : (stryCov_9fa48("4", "5"), (stryMutAct_9fa48("7") ? typeof value !== "object" : stryMutAct_9fa48("6") ? true : (stryCov_9fa48("6", "7"), typeof value === (stryMutAct_9fa48("8") ? "" : (stryCov_9fa48("8"), "object")))) && (stryMutAct_9fa48("10") ? value === null : stryMutAct_9fa48("9") ? true : (stryCov_9fa48("9", "10"), value !== null)))) && (stryMutAct_9fa48("11") ? Array.isArray(value) : (stryCov_9fa48("11"), !Array.isArray(value))));
  return isObject;
})());

/** A single-line excerpt of at most 200 characters, for messages and logs. */
export function excerpt(text: string): string {
  if (stryMutAct_9fa48("12")) {
    {}
  } else {
    stryCov_9fa48("12");
    const line = stryMutAct_9fa48("13") ? text.replace(/\s+/g, " ") : (stryCov_9fa48("13"), text.replace(stryMutAct_9fa48("15") ? /\S+/g : stryMutAct_9fa48("14") ? /\s/g : (stryCov_9fa48("14", "15"), /\s+/g), stryMutAct_9fa48("16") ? "" : (stryCov_9fa48("16"), " ")).trim());
    return (stryMutAct_9fa48("20") ? line.length <= 200 : stryMutAct_9fa48("19") ? line.length >= 200 : stryMutAct_9fa48("18") ? false : stryMutAct_9fa48("17") ? true : (stryCov_9fa48("17", "18", "19", "20"), line.length > 200)) ? stryMutAct_9fa48("21") ? `` : (stryCov_9fa48("21"), `${stryMutAct_9fa48("22") ? line : (stryCov_9fa48("22"), line.slice(0, 200))}…`) : line;
  }
}

// A text body kept on an error: enough to read a proxy's page, never a whole 10 MB answer.
const keptBody = stryMutAct_9fa48("23") ? () => undefined : (stryCov_9fa48("23"), (() => {
  const keptBody = (text: string) => (stryMutAct_9fa48("27") ? text.length <= 4_096 : stryMutAct_9fa48("26") ? text.length >= 4_096 : stryMutAct_9fa48("25") ? false : stryMutAct_9fa48("24") ? true : (stryCov_9fa48("24", "25", "26", "27"), text.length > 4_096)) ? stryMutAct_9fa48("28") ? `` : (stryCov_9fa48("28"), `${stryMutAct_9fa48("29") ? text : (stryCov_9fa48("29"), text.slice(0, 4_096))}… (${text.length} characters in all)`) : text;
  return keptBody;
})());
function parseJson(text: string): {
  value: unknown;
} | undefined {
  if (stryMutAct_9fa48("30")) {
    {}
  } else {
    stryCov_9fa48("30");
    try {
      if (stryMutAct_9fa48("31")) {
        {}
      } else {
        stryCov_9fa48("31");
        return stryMutAct_9fa48("32") ? {} : (stryCov_9fa48("32"), {
          value: JSON.parse(text) as unknown
        });
      }
    } catch {
      // Not JSON: undefined.
    }
  }
}

/**
 * The whole body as text, or the attempt's signal's reason as soon as it aborts: a `fetch` that
 * does not end a body on abort (a test double, a polyfill) cannot hold an attempt past its timeout.
 */
export function readText(response: Response, signal: AbortSignal): Promise<string> {
  if (stryMutAct_9fa48("33")) {
    {}
  } else {
    stryCov_9fa48("33");
    return new Promise<string>((resolve, reject) => {
      if (stryMutAct_9fa48("34")) {
        {}
      } else {
        stryCov_9fa48("34");
        const onAbort = stryMutAct_9fa48("35") ? () => undefined : (stryCov_9fa48("35"), (() => {
          const onAbort = () => reject(signal.reason);
          return onAbort;
        })());
        if (stryMutAct_9fa48("37") ? false : stryMutAct_9fa48("36") ? true : (stryCov_9fa48("36", "37"), signal.aborted)) return onAbort();
        signal.addEventListener(stryMutAct_9fa48("38") ? "" : (stryCov_9fa48("38"), "abort"), onAbort);
        response.text().then(resolve, reject).finally(stryMutAct_9fa48("39") ? () => undefined : (stryCov_9fa48("39"), () => signal.removeEventListener(stryMutAct_9fa48("40") ? "" : (stryCov_9fa48("40"), "abort"), onAbort)));
      }
    });
  }
}

/** No server's clock reads earlier than this: a `Date` before it is junk (epoch 0, a zeroed RTC). */
const EARLIEST_PLAUSIBLE_DATE = Date.UTC(2024, 0, 1);

/**
 * Epoch milliseconds of an HTTP date (`Date`, `Retry-After`), or undefined when absent, unreadable
 * or implausible. A date names its month or has a "T": without a letter, `Date.parse` reads junk
 * such as "0" or "-3" as a date.
 */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  if (stryMutAct_9fa48("41")) {
    {}
  } else {
    stryCov_9fa48("41");
    const date = (stryMutAct_9fa48("44") ? typeof value === "string" || /[a-z]/i.test(value) : stryMutAct_9fa48("43") ? false : stryMutAct_9fa48("42") ? true : (stryCov_9fa48("42", "43", "44"), (stryMutAct_9fa48("46") ? typeof value !== "string" : stryMutAct_9fa48("45") ? true : (stryCov_9fa48("45", "46"), typeof value === (stryMutAct_9fa48("47") ? "" : (stryCov_9fa48("47"), "string")))) && (stryMutAct_9fa48("48") ? /[^a-z]/i : (stryCov_9fa48("48"), /[a-z]/i)).test(value))) ? Date.parse(value) : Number.NaN;
    return (stryMutAct_9fa48("52") ? date < EARLIEST_PLAUSIBLE_DATE : stryMutAct_9fa48("51") ? date > EARLIEST_PLAUSIBLE_DATE : stryMutAct_9fa48("50") ? false : stryMutAct_9fa48("49") ? true : (stryCov_9fa48("49", "50", "51", "52"), date >= EARLIEST_PLAUSIBLE_DATE)) ? date : undefined;
  }
}

/** Seconds from a `Retry-After` value (delta-seconds or an HTTP date); undefined when absent or unreadable; never negative. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (stryMutAct_9fa48("53")) {
    {}
  } else {
    stryCov_9fa48("53");
    if (stryMutAct_9fa48("56") ? value != null : stryMutAct_9fa48("55") ? false : stryMutAct_9fa48("54") ? true : (stryCov_9fa48("54", "55", "56"), value == null)) return undefined;
    const trimmed = stryMutAct_9fa48("57") ? value : (stryCov_9fa48("57"), value.trim());
    if (stryMutAct_9fa48("59") ? false : stryMutAct_9fa48("58") ? true : (stryCov_9fa48("58", "59"), (stryMutAct_9fa48("66") ? /^\d+(\.\D+)?$/ : stryMutAct_9fa48("65") ? /^\d+(\.\d)?$/ : stryMutAct_9fa48("64") ? /^\d+(\.\d+)$/ : stryMutAct_9fa48("63") ? /^\D+(\.\d+)?$/ : stryMutAct_9fa48("62") ? /^\d(\.\d+)?$/ : stryMutAct_9fa48("61") ? /^\d+(\.\d+)?/ : stryMutAct_9fa48("60") ? /\d+(\.\d+)?$/ : (stryCov_9fa48("60", "61", "62", "63", "64", "65", "66"), /^\d+(\.\d+)?$/)).test(trimmed))) return Number(trimmed);
    const date = parseHttpDate(trimmed);
    return (stryMutAct_9fa48("69") ? date !== undefined : stryMutAct_9fa48("68") ? false : stryMutAct_9fa48("67") ? true : (stryCov_9fa48("67", "68", "69"), date === undefined)) ? undefined : stryMutAct_9fa48("70") ? Math.min(0, Math.ceil((date - now) / 1000)) : (stryCov_9fa48("70"), Math.max(0, Math.ceil(stryMutAct_9fa48("71") ? (date - now) * 1000 : (stryCov_9fa48("71"), (stryMutAct_9fa48("72") ? date + now : (stryCov_9fa48("72"), date - now)) / 1000))));
  }
}

/**
 * The request id of an answer: `Request-Id`, `X-Request-Id`, else any header whose name ends in
 * `request-id` or `requestid` (`x-amzn-requestid`, `x-ms-request-id`…).
 */
export function requestIdOf(headers: Headers): string | undefined {
  if (stryMutAct_9fa48("73")) {
    {}
  } else {
    stryCov_9fa48("73");
    const named = stryMutAct_9fa48("74") ? headers.get("request-id") && headers.get("x-request-id") : (stryCov_9fa48("74"), headers.get(stryMutAct_9fa48("75") ? "" : (stryCov_9fa48("75"), "request-id")) ?? headers.get(stryMutAct_9fa48("76") ? "" : (stryCov_9fa48("76"), "x-request-id")));
    if (stryMutAct_9fa48("79") ? named === null : stryMutAct_9fa48("78") ? false : stryMutAct_9fa48("77") ? true : (stryCov_9fa48("77", "78", "79"), named !== null)) return named;
    for (const [name, value] of headers) if (stryMutAct_9fa48("81") ? false : stryMutAct_9fa48("80") ? true : (stryCov_9fa48("80", "81"), (stryMutAct_9fa48("83") ? /request-id$/ : stryMutAct_9fa48("82") ? /request-?id/ : (stryCov_9fa48("82", "83"), /request-?id$/)).test(name))) return value;
    return undefined;
  }
}

/** What an answer says about the server's rate limit, in seconds from now. */
export interface RateLimitFields {
  /** A wait the server asked for (`Retry-After`, or a reset when nothing is left). */
  waitSeconds?: number | undefined;
  /** Requests left in the current window. */
  remaining?: number | undefined;
  /** Seconds until the window resets. */
  resetSeconds?: number | undefined;
  /** The announced policy: `quota` requests per `windowSeconds`. */
  quota?: number | undefined;
  windowSeconds?: number | undefined;
}

// One parameter of a structured field item: `r=3` in `"default";r=3;t=1`.
const param = (value: string | null, key: string) => {
  if (stryMutAct_9fa48("84")) {
    {}
  } else {
    stryCov_9fa48("84");
    const match = stryMutAct_9fa48("87") ? value || new RegExp(`(?:^|;)\\s*${key}=(\\d+(?:\\.\\d+)?)`).exec(value) : stryMutAct_9fa48("86") ? false : stryMutAct_9fa48("85") ? true : (stryCov_9fa48("85", "86", "87"), value && new RegExp(stryMutAct_9fa48("88") ? `` : (stryCov_9fa48("88"), `(?:^|;)\\s*${key}=(\\d+(?:\\.\\d+)?)`)).exec(value));
    return match ? Number(match[1]) : undefined;
  }
};
const number = stryMutAct_9fa48("89") ? () => undefined : (stryCov_9fa48("89"), (() => {
  const number = (value: string | null) => (stryMutAct_9fa48("92") ? value !== null || /^\s*\d+(\.\d+)?\s*$/.test(value) : stryMutAct_9fa48("91") ? false : stryMutAct_9fa48("90") ? true : (stryCov_9fa48("90", "91", "92"), (stryMutAct_9fa48("94") ? value === null : stryMutAct_9fa48("93") ? true : (stryCov_9fa48("93", "94"), value !== null)) && (stryMutAct_9fa48("105") ? /^\s*\d+(\.\d+)?\S*$/ : stryMutAct_9fa48("104") ? /^\s*\d+(\.\d+)?\s$/ : stryMutAct_9fa48("103") ? /^\s*\d+(\.\D+)?\s*$/ : stryMutAct_9fa48("102") ? /^\s*\d+(\.\d)?\s*$/ : stryMutAct_9fa48("101") ? /^\s*\d+(\.\d+)\s*$/ : stryMutAct_9fa48("100") ? /^\s*\D+(\.\d+)?\s*$/ : stryMutAct_9fa48("99") ? /^\s*\d(\.\d+)?\s*$/ : stryMutAct_9fa48("98") ? /^\S*\d+(\.\d+)?\s*$/ : stryMutAct_9fa48("97") ? /^\s\d+(\.\d+)?\s*$/ : stryMutAct_9fa48("96") ? /^\s*\d+(\.\d+)?\s*/ : stryMutAct_9fa48("95") ? /\s*\d+(\.\d+)?\s*$/ : (stryCov_9fa48("95", "96", "97", "98", "99", "100", "101", "102", "103", "104", "105"), /^\s*\d+(\.\d+)?\s*$/)).test(value))) ? Number(value) : undefined;
  return number;
})());

/**
 * The rate-limit fields of an answer, whichever standard they follow: `Retry-After`; the IETF
 * `RateLimit` (`r`, `t`) and `RateLimit-Policy` (`q`, `w`) structured fields; the draft's older
 * `RateLimit-Limit` / `-Remaining` / `-Reset`; `X-RateLimit-Limit` / `-Remaining` / `-Reset`, the
 * reset in seconds or as an epoch time. Unreadable values are left out.
 */
export function rateLimitOf(headers: Headers, now = Date.now()): RateLimitFields {
  if (stryMutAct_9fa48("106")) {
    {}
  } else {
    stryCov_9fa48("106");
    const structured = headers.get(stryMutAct_9fa48("107") ? "" : (stryCov_9fa48("107"), "ratelimit"));
    const policy = headers.get(stryMutAct_9fa48("108") ? "" : (stryCov_9fa48("108"), "ratelimit-policy"));
    const remaining = stryMutAct_9fa48("109") ? (param(structured, "r") ?? number(headers.get("ratelimit-remaining"))) && number(headers.get("x-ratelimit-remaining")) : (stryCov_9fa48("109"), (stryMutAct_9fa48("110") ? param(structured, "r") && number(headers.get("ratelimit-remaining")) : (stryCov_9fa48("110"), param(structured, stryMutAct_9fa48("111") ? "" : (stryCov_9fa48("111"), "r")) ?? number(headers.get(stryMutAct_9fa48("112") ? "" : (stryCov_9fa48("112"), "ratelimit-remaining"))))) ?? number(headers.get(stryMutAct_9fa48("113") ? "" : (stryCov_9fa48("113"), "x-ratelimit-remaining"))));
    let reset = stryMutAct_9fa48("114") ? (param(structured, "t") ?? number(headers.get("ratelimit-reset"))) && number(headers.get("x-ratelimit-reset")) : (stryCov_9fa48("114"), (stryMutAct_9fa48("115") ? param(structured, "t") && number(headers.get("ratelimit-reset")) : (stryCov_9fa48("115"), param(structured, stryMutAct_9fa48("116") ? "" : (stryCov_9fa48("116"), "t")) ?? number(headers.get(stryMutAct_9fa48("117") ? "" : (stryCov_9fa48("117"), "ratelimit-reset"))))) ?? number(headers.get(stryMutAct_9fa48("118") ? "" : (stryCov_9fa48("118"), "x-ratelimit-reset"))));
    // An epoch time (GitHub's X-RateLimit-Reset) rather than seconds from now.
    if (stryMutAct_9fa48("121") ? reset !== undefined || reset * 1000 >= EARLIEST_PLAUSIBLE_DATE : stryMutAct_9fa48("120") ? false : stryMutAct_9fa48("119") ? true : (stryCov_9fa48("119", "120", "121"), (stryMutAct_9fa48("123") ? reset === undefined : stryMutAct_9fa48("122") ? true : (stryCov_9fa48("122", "123"), reset !== undefined)) && (stryMutAct_9fa48("126") ? reset * 1000 < EARLIEST_PLAUSIBLE_DATE : stryMutAct_9fa48("125") ? reset * 1000 > EARLIEST_PLAUSIBLE_DATE : stryMutAct_9fa48("124") ? true : (stryCov_9fa48("124", "125", "126"), (stryMutAct_9fa48("127") ? reset / 1000 : (stryCov_9fa48("127"), reset * 1000)) >= EARLIEST_PLAUSIBLE_DATE)))) reset = stryMutAct_9fa48("128") ? Math.min(0, reset - now / 1000) : (stryCov_9fa48("128"), Math.max(0, stryMutAct_9fa48("129") ? reset + now / 1000 : (stryCov_9fa48("129"), reset - (stryMutAct_9fa48("130") ? now * 1000 : (stryCov_9fa48("130"), now / 1000)))));
    const quota = stryMutAct_9fa48("131") ? (param(policy, "q") ?? number(headers.get("ratelimit-limit"))) && number(headers.get("x-ratelimit-limit")) : (stryCov_9fa48("131"), (stryMutAct_9fa48("132") ? param(policy, "q") && number(headers.get("ratelimit-limit")) : (stryCov_9fa48("132"), param(policy, stryMutAct_9fa48("133") ? "" : (stryCov_9fa48("133"), "q")) ?? number(headers.get(stryMutAct_9fa48("134") ? "" : (stryCov_9fa48("134"), "ratelimit-limit"))))) ?? number(headers.get(stryMutAct_9fa48("135") ? "" : (stryCov_9fa48("135"), "x-ratelimit-limit"))));
    const retryAfter = parseRetryAfter(headers.get(stryMutAct_9fa48("136") ? "" : (stryCov_9fa48("136"), "retry-after")), now);
    return stryMutAct_9fa48("137") ? {} : (stryCov_9fa48("137"), {
      waitSeconds: stryMutAct_9fa48("138") ? retryAfter && (remaining === 0 ? reset : undefined) : (stryCov_9fa48("138"), retryAfter ?? ((stryMutAct_9fa48("141") ? remaining !== 0 : stryMutAct_9fa48("140") ? false : stryMutAct_9fa48("139") ? true : (stryCov_9fa48("139", "140", "141"), remaining === 0)) ? reset : undefined)),
      remaining,
      resetSeconds: reset,
      quota,
      windowSeconds: param(policy, stryMutAct_9fa48("142") ? "" : (stryCov_9fa48("142"), "w"))
    });
  }
}

// RFC 9457's default problem type names no particular error, so it is no code.
const text = stryMutAct_9fa48("143") ? () => undefined : (stryCov_9fa48("143"), (() => {
  const text = (value: unknown): value is string => stryMutAct_9fa48("146") ? typeof value === "string" && value.trim() !== "" || value !== "about:blank" : stryMutAct_9fa48("145") ? false : stryMutAct_9fa48("144") ? true : (stryCov_9fa48("144", "145", "146"), (stryMutAct_9fa48("148") ? typeof value === "string" || value.trim() !== "" : stryMutAct_9fa48("147") ? true : (stryCov_9fa48("147", "148"), (stryMutAct_9fa48("150") ? typeof value !== "string" : stryMutAct_9fa48("149") ? true : (stryCov_9fa48("149", "150"), typeof value === (stryMutAct_9fa48("151") ? "" : (stryCov_9fa48("151"), "string")))) && (stryMutAct_9fa48("153") ? value.trim() === "" : stryMutAct_9fa48("152") ? true : (stryCov_9fa48("152", "153"), (stryMutAct_9fa48("154") ? value : (stryCov_9fa48("154"), value.trim())) !== (stryMutAct_9fa48("155") ? "Stryker was here!" : (stryCov_9fa48("155"), "")))))) && (stryMutAct_9fa48("157") ? value === "about:blank" : stryMutAct_9fa48("156") ? true : (stryCov_9fa48("156", "157"), value !== (stryMutAct_9fa48("158") ? "" : (stryCov_9fa48("158"), "about:blank")))));
  return text;
})());
const firstText = stryMutAct_9fa48("159") ? () => undefined : (stryCov_9fa48("159"), (() => {
  const firstText = (...values: unknown[]) => values.find(text);
  return firstText;
})());
// `#/amount`, `/amount` or `amount` as a path.
const pathOf = stryMutAct_9fa48("160") ? () => undefined : (stryCov_9fa48("160"), (() => {
  const pathOf = (pointer: unknown): PropertyKey[] => text(pointer) ? stryMutAct_9fa48("161") ? pointer.replace(/^#?\//, "").split(/[/.]/) : (stryCov_9fa48("161"), pointer.replace(stryMutAct_9fa48("163") ? /^#\// : stryMutAct_9fa48("162") ? /#?\// : (stryCov_9fa48("162", "163"), /^#?\//), stryMutAct_9fa48("164") ? "Stryker was here!" : (stryCov_9fa48("164"), "")).split(stryMutAct_9fa48("165") ? /[^/.]/ : (stryCov_9fa48("165"), /[/.]/)).filter(Boolean)) : stryMutAct_9fa48("166") ? ["Stryker was here"] : (stryCov_9fa48("166"), []);
  return pathOf;
})());

/**
 * What an error body of unknown shape says: RFC 9457 problem details (`type`, `title`, `detail`,
 * `errors[]` of `pointer`/`detail`, `invalid-params` of `name`/`reason`), `{ error: { code,
 * message, param } }`, `{ errors: [{ code, detail, source: { pointer } }] }`, flat `{ code,
 * message }`, `{ error: "text" }`, OAuth's `{ error, error_description }`, and the default bodies of
 * the popular server frameworks (`{ statusCode, error, message }`, `{ detail: [{ loc, msg }] }`).
 * @example
 * ```ts
 * const response = await fetch(url, init); // a hand-made request
 * if (!response.ok) console.log(errorFields(await response.json().catch(() => undefined)).code); // "invalid_signature"
 * ```
 */
export function errorFields(body: unknown): {
  /** The machine-readable code (`code`, `error.code`, a problem's `type`…), when there is one. */
  code?: string | undefined;
  /** The human-readable message (`detail`, `message`, `title`…), when there is one. */
  message?: string | undefined;
  /** The fields the body names, with their reasons. */
  issues: ValidationIssue[];
} {
  if (stryMutAct_9fa48("167")) {
    {}
  } else {
    stryCov_9fa48("167");
    if (stryMutAct_9fa48("170") ? false : stryMutAct_9fa48("169") ? true : stryMutAct_9fa48("168") ? isObject(body) : (stryCov_9fa48("168", "169", "170"), !isObject(body))) return stryMutAct_9fa48("171") ? {} : (stryCov_9fa48("171"), {
      issues: stryMutAct_9fa48("172") ? ["Stryker was here"] : (stryCov_9fa48("172"), [])
    });
    const list = stryMutAct_9fa48("173") ? [body.errors, body["invalid-params"], body.invalid_params, body.detail].find(Array.isArray) && [] : (stryCov_9fa48("173"), (stryMutAct_9fa48("174") ? [] : (stryCov_9fa48("174"), [body.errors, body[stryMutAct_9fa48("175") ? "" : (stryCov_9fa48("175"), "invalid-params")], body.invalid_params, body.detail])).find(Array.isArray) ?? (stryMutAct_9fa48("176") ? ["Stryker was here"] : (stryCov_9fa48("176"), [])));
    const items = stryMutAct_9fa48("177") ? list : (stryCov_9fa48("177"), list.filter(isObject));
    const objects = stryMutAct_9fa48("178") ? [body.error, items[0], body] : (stryCov_9fa48("178"), (stryMutAct_9fa48("179") ? [] : (stryCov_9fa48("179"), [body.error, items[0], body])).filter(isObject));
    const issues = items.flatMap((item): ValidationIssue[] => {
      if (stryMutAct_9fa48("180")) {
        {}
      } else {
        stryCov_9fa48("180");
        const path = pathOf(stryMutAct_9fa48("181") ? (item.pointer ?? (isObject(item.source) ? item.source.pointer ?? item.source.parameter : undefined) ?? item.name ?? item.field ?? item.param) && (Array.isArray(item.loc) ? item.loc.filter(part => part !== "body").join("/") : undefined) : (stryCov_9fa48("181"), (stryMutAct_9fa48("182") ? (item.pointer ?? (isObject(item.source) ? item.source.pointer ?? item.source.parameter : undefined) ?? item.name ?? item.field) && item.param : (stryCov_9fa48("182"), (stryMutAct_9fa48("183") ? (item.pointer ?? (isObject(item.source) ? item.source.pointer ?? item.source.parameter : undefined) ?? item.name) && item.field : (stryCov_9fa48("183"), (stryMutAct_9fa48("184") ? (item.pointer ?? (isObject(item.source) ? item.source.pointer ?? item.source.parameter : undefined)) && item.name : (stryCov_9fa48("184"), (stryMutAct_9fa48("185") ? item.pointer && (isObject(item.source) ? item.source.pointer ?? item.source.parameter : undefined) : (stryCov_9fa48("185"), item.pointer ?? (isObject(item.source) ? stryMutAct_9fa48("186") ? item.source.pointer && item.source.parameter : (stryCov_9fa48("186"), item.source.pointer ?? item.source.parameter) : undefined))) ?? item.name)) ?? item.field)) ?? item.param)) ?? (Array.isArray(item.loc) ? stryMutAct_9fa48("187") ? item.loc.join("/") : (stryCov_9fa48("187"), item.loc.filter(stryMutAct_9fa48("188") ? () => undefined : (stryCov_9fa48("188"), part => stryMutAct_9fa48("191") ? part === "body" : stryMutAct_9fa48("190") ? false : stryMutAct_9fa48("189") ? true : (stryCov_9fa48("189", "190", "191"), part !== (stryMutAct_9fa48("192") ? "" : (stryCov_9fa48("192"), "body"))))).join(stryMutAct_9fa48("193") ? "" : (stryCov_9fa48("193"), "/"))) : undefined)));
        const message = firstText(item.detail, item.reason, item.message, item.msg, item.title);
        // Only an entry that names a field is an issue of the request; the first entry is the message anyway.
        return (stryMutAct_9fa48("196") ? message === undefined && path.length === 0 : stryMutAct_9fa48("195") ? false : stryMutAct_9fa48("194") ? true : (stryCov_9fa48("194", "195", "196"), (stryMutAct_9fa48("198") ? message !== undefined : stryMutAct_9fa48("197") ? false : (stryCov_9fa48("197", "198"), message === undefined)) || (stryMutAct_9fa48("200") ? path.length !== 0 : stryMutAct_9fa48("199") ? false : (stryCov_9fa48("199", "200"), path.length === 0)))) ? stryMutAct_9fa48("201") ? ["Stryker was here"] : (stryCov_9fa48("201"), []) : stryMutAct_9fa48("202") ? [] : (stryCov_9fa48("202"), [stryMutAct_9fa48("203") ? {} : (stryCov_9fa48("203"), {
          path,
          message,
          code: stryMutAct_9fa48("204") ? firstText(item.code, item.type) && "invalid" : (stryCov_9fa48("204"), firstText(item.code, item.type) ?? (stryMutAct_9fa48("205") ? "" : (stryCov_9fa48("205"), "invalid")))
        })]);
      }
    });
    if (stryMutAct_9fa48("208") ? isObject(body.error) || text(body.error.param) : stryMutAct_9fa48("207") ? false : stryMutAct_9fa48("206") ? true : (stryCov_9fa48("206", "207", "208"), isObject(body.error) && text(body.error.param))) issues.push(stryMutAct_9fa48("209") ? {} : (stryCov_9fa48("209"), {
      path: pathOf(body.error.param),
      message: stryMutAct_9fa48("210") ? firstText(body.error.message) && "invalid" : (stryCov_9fa48("210"), firstText(body.error.message) ?? (stryMutAct_9fa48("211") ? "" : (stryCov_9fa48("211"), "invalid"))),
      code: stryMutAct_9fa48("212") ? firstText(body.error.code) && "invalid" : (stryCov_9fa48("212"), firstText(body.error.code) ?? (stryMutAct_9fa48("213") ? "" : (stryCov_9fa48("213"), "invalid")))
    }));
    // A problem's `detail` explains this occurrence; its `title` names the type: the detail comes first.
    const message = firstText(body.detail, ...objects.flatMap(stryMutAct_9fa48("214") ? () => undefined : (stryCov_9fa48("214"), o => stryMutAct_9fa48("215") ? [] : (stryCov_9fa48("215"), [o.message, o.detail, o.error_description, o.title, o.msg]))), body.error);
    // `{ error: "invalid_signature" }` is a code when it looks like one, else it was the message.
    const code = firstText(...objects.flatMap(stryMutAct_9fa48("216") ? () => undefined : (stryCov_9fa48("216"), o => stryMutAct_9fa48("217") ? [] : (stryCov_9fa48("217"), [o.code, o.error_code, o.type]))), (stryMutAct_9fa48("220") ? /^[\w.-]+$/.test(String(body.error)) || text(body.error) : stryMutAct_9fa48("219") ? false : stryMutAct_9fa48("218") ? true : (stryCov_9fa48("218", "219", "220"), (stryMutAct_9fa48("225") ? /^[\W.-]+$/ : stryMutAct_9fa48("224") ? /^[^\w.-]+$/ : stryMutAct_9fa48("223") ? /^[\w.-]$/ : stryMutAct_9fa48("222") ? /^[\w.-]+/ : stryMutAct_9fa48("221") ? /[\w.-]+$/ : (stryCov_9fa48("221", "222", "223", "224", "225"), /^[\w.-]+$/)).test(String(body.error)) && text(body.error))) ? body.error : undefined);
    const numeric = objects.map(stryMutAct_9fa48("226") ? () => undefined : (stryCov_9fa48("226"), o => o.code)).find(stryMutAct_9fa48("227") ? () => undefined : (stryCov_9fa48("227"), c => stryMutAct_9fa48("230") ? typeof c !== "number" : stryMutAct_9fa48("229") ? false : stryMutAct_9fa48("228") ? true : (stryCov_9fa48("228", "229", "230"), typeof c === (stryMutAct_9fa48("231") ? "" : (stryCov_9fa48("231"), "number")))));
    return stryMutAct_9fa48("232") ? {} : (stryCov_9fa48("232"), {
      code: stryMutAct_9fa48("233") ? code && (numeric === undefined ? undefined : String(numeric)) : (stryCov_9fa48("233"), code ?? ((stryMutAct_9fa48("236") ? numeric !== undefined : stryMutAct_9fa48("235") ? false : stryMutAct_9fa48("234") ? true : (stryCov_9fa48("234", "235", "236"), numeric === undefined)) ? undefined : String(numeric))),
      message,
      issues
    });
  }
}

/** The error a non-2xx answer becomes; `note` ends its message (the attempts, the verdict). */
export function readError(response: Response, text: string, note: string, mayHaveBeenApplied: boolean) {
  if (stryMutAct_9fa48("237")) {
    {}
  } else {
    stryCov_9fa48("237");
    const parsed = parseJson(text);
    const body = parsed ? parsed.value : keptBody(text);
    const {
      code,
      message,
      issues
    } = errorFields(body);
    const statusLine = stryMutAct_9fa48("238") ? `` : (stryCov_9fa48("238"), `${response.status}${response.statusText ? stryMutAct_9fa48("239") ? `` : (stryCov_9fa48("239"), ` ${response.statusText}`) : stryMutAct_9fa48("240") ? "Stryker was here!" : (stryCov_9fa48("240"), "")}`);
    const fields = (stryMutAct_9fa48("244") ? issues.length <= 0 : stryMutAct_9fa48("243") ? issues.length >= 0 : stryMutAct_9fa48("242") ? false : stryMutAct_9fa48("241") ? true : (stryCov_9fa48("241", "242", "243", "244"), issues.length > 0)) ? stryMutAct_9fa48("245") ? `` : (stryCov_9fa48("245"), ` (${issues.map(stryMutAct_9fa48("246") ? () => undefined : (stryCov_9fa48("246"), issue => stryMutAct_9fa48("247") ? `` : (stryCov_9fa48("247"), `${fieldPath(issue.path)}: ${issue.message}`))).join(stryMutAct_9fa48("248") ? "" : (stryCov_9fa48("248"), "; "))})`) : stryMutAct_9fa48("249") ? "Stryker was here!" : (stryCov_9fa48("249"), "");
    const headers = Object.fromEntries(response.headers);
    return apiError(stryMutAct_9fa48("250") ? {} : (stryCov_9fa48("250"), {
      status: response.status,
      code,
      detail: message,
      issues,
      message: stryMutAct_9fa48("251") ? `` : (stryCov_9fa48("251"), `${statusLine}${code ? stryMutAct_9fa48("252") ? `` : (stryCov_9fa48("252"), ` [${code}]`) : stryMutAct_9fa48("253") ? "Stryker was here!" : (stryCov_9fa48("253"), "")}: ${stryMutAct_9fa48("254") ? message && (excerpt(text) || "(empty body)") : (stryCov_9fa48("254"), message ?? (stryMutAct_9fa48("257") ? excerpt(text) && "(empty body)" : stryMutAct_9fa48("256") ? false : stryMutAct_9fa48("255") ? true : (stryCov_9fa48("255", "256", "257"), excerpt(text) || (stryMutAct_9fa48("258") ? "" : (stryCov_9fa48("258"), "(empty body)")))))}${fields}${note}`),
      body,
      headers,
      requestId: requestIdOf(response.headers),
      retryAfterMs: (stryMutAct_9fa48("259") ? () => undefined : (stryCov_9fa48("259"), seconds => (stryMutAct_9fa48("262") ? seconds !== undefined : stryMutAct_9fa48("261") ? false : stryMutAct_9fa48("260") ? true : (stryCov_9fa48("260", "261", "262"), seconds === undefined)) ? undefined : stryMutAct_9fa48("263") ? seconds / 1000 : (stryCov_9fa48("263"), seconds * 1000)))(parseRetryAfter(headers[stryMutAct_9fa48("264") ? "" : (stryCov_9fa48("264"), "retry-after")])),
      mayHaveBeenApplied
    }));
  }
}

/**
 * What {@link isDuplicate} and the `duplicate` option read: one answer to an award, its body parsed (or its text).
 * @example
 * ```ts
 * const answer: AwardAnswer = { status: 409, headers: new Headers(), body: { code: "ref_already_used" } };
 * ```
 */
export interface AwardAnswer {
  /** The HTTP status of the answer. */
  status: number;
  /** Its headers. */
  headers: Headers;
  /** Its body, parsed JSON when it was JSON, else its text. */
  body: unknown;
}
const NAMES_DUPLICATE = stryMutAct_9fa48("268") ? /duplicate|already[\s_-]*(exists|used|credited|applied|processed|awarded|claimed|recorded|seen)|replay/i : stryMutAct_9fa48("267") ? /duplicate|already[\S_-]*(exists?|used|credited|applied|processed|awarded|claimed|recorded|seen)|replay/i : stryMutAct_9fa48("266") ? /duplicate|already[^\s_-]*(exists?|used|credited|applied|processed|awarded|claimed|recorded|seen)|replay/i : stryMutAct_9fa48("265") ? /duplicate|already[\s_-](exists?|used|credited|applied|processed|awarded|claimed|recorded|seen)|replay/i : (stryCov_9fa48("265", "266", "267", "268"), /duplicate|already[\s_-]*(exists?|used|credited|applied|processed|awarded|claimed|recorded|seen)|replay/i);
// A `ref` that went with another award or other parameters: a conflict, never "already done".
const NAMES_CONFLICT = /\b(another|other|different)\b|differ|mismatch|does not match|not match/i;

/**
 * Whether an award's answer says the hub already had this `ref` (the one rule, documented in
 * docs/spec-decisions.md): a 2xx whose body says `duplicate`/`replayed`/`idempotent_replayed`
 * (also one envelope deep), an `Idempotent-Replayed: true` header (Stripe), `208 Already Reported`,
 * or a 409/422 whose problem type, code, title, detail or message names a duplicate or a `ref`
 * that already exists or was already used, credited or applied. An answer that names another award
 * or different parameters is a conflict: never a duplicate, whatever else it says.
 * @example
 * ```ts
 * isDuplicate({ status: 409, headers: new Headers(), body: { type: "https://hub.example/problems/duplicate-ref" } }); // true
 * ```
 */
export function isDuplicate({
  status,
  headers,
  body
}: AwardAnswer): boolean {
  if (stryMutAct_9fa48("269")) {
    {}
  } else {
    stryCov_9fa48("269");
    if (stryMutAct_9fa48("272") ? status >= 200 || status < 300 : stryMutAct_9fa48("271") ? false : stryMutAct_9fa48("270") ? true : (stryCov_9fa48("270", "271", "272"), (stryMutAct_9fa48("275") ? status < 200 : stryMutAct_9fa48("274") ? status > 200 : stryMutAct_9fa48("273") ? true : (stryCov_9fa48("273", "274", "275"), status >= 200)) && (stryMutAct_9fa48("278") ? status >= 300 : stryMutAct_9fa48("277") ? status <= 300 : stryMutAct_9fa48("276") ? true : (stryCov_9fa48("276", "277", "278"), status < 300)))) {
      if (stryMutAct_9fa48("279")) {
        {}
      } else {
        stryCov_9fa48("279");
        if (stryMutAct_9fa48("282") ? status === 208 && /^\s*true\s*$/i.test(headers.get("idempotent-replayed") ?? "") : stryMutAct_9fa48("281") ? false : stryMutAct_9fa48("280") ? true : (stryCov_9fa48("280", "281", "282"), (stryMutAct_9fa48("284") ? status !== 208 : stryMutAct_9fa48("283") ? false : (stryCov_9fa48("283", "284"), status === 208)) || (stryMutAct_9fa48("290") ? /^\s*true\S*$/i : stryMutAct_9fa48("289") ? /^\s*true\s$/i : stryMutAct_9fa48("288") ? /^\S*true\s*$/i : stryMutAct_9fa48("287") ? /^\strue\s*$/i : stryMutAct_9fa48("286") ? /^\s*true\s*/i : stryMutAct_9fa48("285") ? /\s*true\s*$/i : (stryCov_9fa48("285", "286", "287", "288", "289", "290"), /^\s*true\s*$/i)).test(stryMutAct_9fa48("291") ? headers.get("idempotent-replayed") && "" : (stryCov_9fa48("291"), headers.get(stryMutAct_9fa48("292") ? "" : (stryCov_9fa48("292"), "idempotent-replayed")) ?? (stryMutAct_9fa48("293") ? "Stryker was here!" : (stryCov_9fa48("293"), "")))))) return stryMutAct_9fa48("294") ? false : (stryCov_9fa48("294"), true);
        const flags = stryMutAct_9fa48("295") ? () => undefined : (stryCov_9fa48("295"), (() => {
          const flags = (value: unknown) => stryMutAct_9fa48("298") ? isObject(value) || [value.duplicate, value.replayed, value.idempotent_replayed, value.idempotentReplayed].some(flag => flag === true) : stryMutAct_9fa48("297") ? false : stryMutAct_9fa48("296") ? true : (stryCov_9fa48("296", "297", "298"), isObject(value) && (stryMutAct_9fa48("299") ? [value.duplicate, value.replayed, value.idempotent_replayed, value.idempotentReplayed].every(flag => flag === true) : (stryCov_9fa48("299"), (stryMutAct_9fa48("300") ? [] : (stryCov_9fa48("300"), [value.duplicate, value.replayed, value.idempotent_replayed, value.idempotentReplayed])).some(stryMutAct_9fa48("301") ? () => undefined : (stryCov_9fa48("301"), flag => stryMutAct_9fa48("304") ? flag !== true : stryMutAct_9fa48("303") ? false : stryMutAct_9fa48("302") ? true : (stryCov_9fa48("302", "303", "304"), flag === (stryMutAct_9fa48("305") ? false : (stryCov_9fa48("305"), true))))))));
          return flags;
        })());
        return stryMutAct_9fa48("308") ? flags(body) && isObject(body) && (flags(body.data) || flags(body.meta)) : stryMutAct_9fa48("307") ? false : stryMutAct_9fa48("306") ? true : (stryCov_9fa48("306", "307", "308"), flags(body) || (stryMutAct_9fa48("310") ? isObject(body) || flags(body.data) || flags(body.meta) : stryMutAct_9fa48("309") ? false : (stryCov_9fa48("309", "310"), isObject(body) && (stryMutAct_9fa48("312") ? flags(body.data) && flags(body.meta) : stryMutAct_9fa48("311") ? true : (stryCov_9fa48("311", "312"), flags(body.data) || flags(body.meta))))));
      }
    }
    if (stryMutAct_9fa48("315") ? status !== 409 || status !== 422 : stryMutAct_9fa48("314") ? false : stryMutAct_9fa48("313") ? true : (stryCov_9fa48("313", "314", "315"), (stryMutAct_9fa48("317") ? status === 409 : stryMutAct_9fa48("316") ? true : (stryCov_9fa48("316", "317"), status !== 409)) && (stryMutAct_9fa48("319") ? status === 422 : stryMutAct_9fa48("318") ? true : (stryCov_9fa48("318", "319"), status !== 422)))) return stryMutAct_9fa48("320") ? true : (stryCov_9fa48("320"), false);
    const {
      code,
      message
    } = errorFields(body);
    const said = stryMutAct_9fa48("321") ? [code, message, isObject(body) ? body.title : undefined, typeof body === "string" ? body : undefined].join(" ") : (stryCov_9fa48("321"), (stryMutAct_9fa48("322") ? [] : (stryCov_9fa48("322"), [code, message, isObject(body) ? body.title : undefined, (stryMutAct_9fa48("325") ? typeof body !== "string" : stryMutAct_9fa48("324") ? false : stryMutAct_9fa48("323") ? true : (stryCov_9fa48("323", "324", "325"), typeof body === (stryMutAct_9fa48("326") ? "" : (stryCov_9fa48("326"), "string")))) ? body : undefined])).filter(text).join(stryMutAct_9fa48("327") ? "" : (stryCov_9fa48("327"), " ")));
    return stryMutAct_9fa48("330") ? NAMES_DUPLICATE.test(said) || !NAMES_CONFLICT.test(said) : stryMutAct_9fa48("329") ? false : stryMutAct_9fa48("328") ? true : (stryCov_9fa48("328", "329", "330"), NAMES_DUPLICATE.test(said) && (stryMutAct_9fa48("331") ? NAMES_CONFLICT.test(said) : (stryCov_9fa48("331"), !NAMES_CONFLICT.test(said))));
  }
}

/** Which JSON a call accepts: an object; an object or array (lists); or an object or nothing (writes). */
export type BodyKind = "object" | "object-or-array" | "object-or-empty";

/** A 2xx answer's body, read as text within its attempt. */
export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** A write's answer: it was applied, so an unusable body's error says it may have been. */
  applied: boolean;
}

/**
 * The body of a 2xx answer as JSON, every field kept. An empty write answer (204) is `{}`: the
 * server accepted the award and had nothing to add.
 */
export function decodeBody(answer: TextAnswer, kind: BodyKind): unknown {
  if (stryMutAct_9fa48("332")) {
    {}
  } else {
    stryCov_9fa48("332");
    const fail = stryMutAct_9fa48("333") ? () => undefined : (stryCov_9fa48("333"), (() => {
      const fail = (problem: "empty-body" | "invalid-json" | "unexpected-shape", detail: string, body: unknown = keptBody(answer.text)) => new HubResponseError(stryMutAct_9fa48("334") ? {} : (stryCov_9fa48("334"), {
        status: answer.status,
        problem,
        detail,
        body,
        bodyExcerpt: excerpt(answer.text),
        mayHaveBeenApplied: answer.applied
      }));
      return fail;
    })());
    if (stryMutAct_9fa48("337") ? answer.text.trim() !== "" : stryMutAct_9fa48("336") ? false : stryMutAct_9fa48("335") ? true : (stryCov_9fa48("335", "336", "337"), (stryMutAct_9fa48("338") ? answer.text : (stryCov_9fa48("338"), answer.text.trim())) === (stryMutAct_9fa48("339") ? "Stryker was here!" : (stryCov_9fa48("339"), "")))) {
      if (stryMutAct_9fa48("340")) {
        {}
      } else {
        stryCov_9fa48("340");
        if (stryMutAct_9fa48("343") ? kind !== "object-or-empty" : stryMutAct_9fa48("342") ? false : stryMutAct_9fa48("341") ? true : (stryCov_9fa48("341", "342", "343"), kind === (stryMutAct_9fa48("344") ? "" : (stryCov_9fa48("344"), "object-or-empty")))) return {};
        throw fail(stryMutAct_9fa48("345") ? "" : (stryCov_9fa48("345"), "empty-body"), stryMutAct_9fa48("346") ? "" : (stryCov_9fa48("346"), "the server sent no body"));
      }
    }
    const parsed = parseJson(answer.text);
    if (stryMutAct_9fa48("349") ? false : stryMutAct_9fa48("348") ? true : stryMutAct_9fa48("347") ? parsed : (stryCov_9fa48("347", "348", "349"), !parsed)) throw fail(stryMutAct_9fa48("350") ? "" : (stryCov_9fa48("350"), "invalid-json"), stryMutAct_9fa48("351") ? `` : (stryCov_9fa48("351"), `expected JSON, got ${stryMutAct_9fa48("352") ? answer.headers.get("content-type") && "no content-type" : (stryCov_9fa48("352"), answer.headers.get(stryMutAct_9fa48("353") ? "" : (stryCov_9fa48("353"), "content-type")) ?? (stryMutAct_9fa48("354") ? "" : (stryCov_9fa48("354"), "no content-type")))}: ${excerpt(answer.text)}`));
    const {
      value
    } = parsed;
    if (stryMutAct_9fa48("357") ? !isObject(value) || !(kind === "object-or-array" && Array.isArray(value)) : stryMutAct_9fa48("356") ? false : stryMutAct_9fa48("355") ? true : (stryCov_9fa48("355", "356", "357"), (stryMutAct_9fa48("358") ? isObject(value) : (stryCov_9fa48("358"), !isObject(value))) && (stryMutAct_9fa48("359") ? kind === "object-or-array" && Array.isArray(value) : (stryCov_9fa48("359"), !(stryMutAct_9fa48("362") ? kind === "object-or-array" || Array.isArray(value) : stryMutAct_9fa48("361") ? false : stryMutAct_9fa48("360") ? true : (stryCov_9fa48("360", "361", "362"), (stryMutAct_9fa48("364") ? kind !== "object-or-array" : stryMutAct_9fa48("363") ? true : (stryCov_9fa48("363", "364"), kind === (stryMutAct_9fa48("365") ? "" : (stryCov_9fa48("365"), "object-or-array")))) && Array.isArray(value))))))) {
      if (stryMutAct_9fa48("366")) {
        {}
      } else {
        stryCov_9fa48("366");
        throw fail(stryMutAct_9fa48("367") ? "" : (stryCov_9fa48("367"), "unexpected-shape"), stryMutAct_9fa48("368") ? `` : (stryCov_9fa48("368"), `expected ${(stryMutAct_9fa48("371") ? kind !== "object-or-array" : stryMutAct_9fa48("370") ? false : stryMutAct_9fa48("369") ? true : (stryCov_9fa48("369", "370", "371"), kind === (stryMutAct_9fa48("372") ? "" : (stryCov_9fa48("372"), "object-or-array")))) ? stryMutAct_9fa48("373") ? "" : (stryCov_9fa48("373"), "a JSON object or array") : stryMutAct_9fa48("374") ? "" : (stryCov_9fa48("374"), "a JSON object")}: ${excerpt(answer.text)}`), value);
      }
    }
    return value;
  }
}

/** The payload under an envelope's key (`unwrap`), or the body as it is when it has no such key. */
export function unwrapBody(body: unknown, key: string | undefined): unknown {
  if (stryMutAct_9fa48("375")) {
    {}
  } else {
    stryCov_9fa48("375");
    return (stryMutAct_9fa48("378") ? key !== undefined && isObject(body) || key in body : stryMutAct_9fa48("377") ? false : stryMutAct_9fa48("376") ? true : (stryCov_9fa48("376", "377", "378"), (stryMutAct_9fa48("380") ? key !== undefined || isObject(body) : stryMutAct_9fa48("379") ? true : (stryCov_9fa48("379", "380"), (stryMutAct_9fa48("382") ? key === undefined : stryMutAct_9fa48("381") ? true : (stryCov_9fa48("381", "382"), key !== undefined)) && isObject(body))) && key in body)) ? body[key] : body;
  }
}

/** What a body is checked against, and what to do when it does not fit. */
export interface BodyCheck {
  /** The operation, or for a subclass's own call without one, its method and path. */
  operation: string;
  schema: StandardSchemaV1 | undefined;
  mode: "throw" | "warn" | "off";
  answer: TextAnswer;
  /** Called once per field path under `"warn"`. */
  warn: (fields: Record<string, unknown>) => void;
}

/**
 * The body as the call returns it: as sent when nothing is checked (no schema, or `"off"`), else
 * the schema's output when it fits. A misfit throws `HubSchemaError` (`"throw"`) or, with
 * `"warn"`, is returned as sent after one `warn` per field path.
 */
export async function checkBody<T>(value: unknown, {
  operation,
  schema,
  mode,
  answer,
  warn
}: BodyCheck): Promise<T> {
  if (stryMutAct_9fa48("383")) {
    {}
  } else {
    stryCov_9fa48("383");
    if (stryMutAct_9fa48("386") ? !schema && mode === "off" : stryMutAct_9fa48("385") ? false : stryMutAct_9fa48("384") ? true : (stryCov_9fa48("384", "385", "386"), (stryMutAct_9fa48("387") ? schema : (stryCov_9fa48("387"), !schema)) || (stryMutAct_9fa48("389") ? mode !== "off" : stryMutAct_9fa48("388") ? false : (stryCov_9fa48("388", "389"), mode === (stryMutAct_9fa48("390") ? "" : (stryCov_9fa48("390"), "off")))))) return value as T;
    const result = await schema[stryMutAct_9fa48("391") ? "" : (stryCov_9fa48("391"), "~standard")].validate(value);
    if (stryMutAct_9fa48("394") ? false : stryMutAct_9fa48("393") ? true : stryMutAct_9fa48("392") ? result.issues : (stryCov_9fa48("392", "393", "394"), !result.issues)) return result.value as T;
    const issues = result.issues.map(stryMutAct_9fa48("395") ? () => undefined : (stryCov_9fa48("395"), (issue): ValidationIssue => stryMutAct_9fa48("396") ? {} : (stryCov_9fa48("396"), {
      path: (stryMutAct_9fa48("397") ? issue.path && [] : (stryCov_9fa48("397"), issue.path ?? (stryMutAct_9fa48("398") ? ["Stryker was here"] : (stryCov_9fa48("398"), [])))).map(stryMutAct_9fa48("399") ? () => undefined : (stryCov_9fa48("399"), part => (stryMutAct_9fa48("402") ? typeof part !== "object" : stryMutAct_9fa48("401") ? false : stryMutAct_9fa48("400") ? true : (stryCov_9fa48("400", "401", "402"), typeof part === (stryMutAct_9fa48("403") ? "" : (stryCov_9fa48("403"), "object")))) ? part.key : part)),
      message: issue.message,
      code: stryMutAct_9fa48("404") ? "" : (stryCov_9fa48("404"), "schema_mismatch")
    })));
    if (stryMutAct_9fa48("407") ? mode !== "throw" : stryMutAct_9fa48("406") ? false : stryMutAct_9fa48("405") ? true : (stryCov_9fa48("405", "406", "407"), mode === (stryMutAct_9fa48("408") ? "" : (stryCov_9fa48("408"), "throw")))) throw new HubSchemaError(stryMutAct_9fa48("409") ? {} : (stryCov_9fa48("409"), {
      operation,
      status: answer.status,
      data: value,
      issues,
      applied: answer.applied,
      bodyExcerpt: excerpt(answer.text)
    }));
    // One record per field path, with every rule it broke.
    const rules = new Map<string, string[]>();
    for (const {
      path,
      message
    } of issues) rules.set(fieldPath(path), stryMutAct_9fa48("410") ? [] : (stryCov_9fa48("410"), [...(stryMutAct_9fa48("411") ? rules.get(fieldPath(path)) && [] : (stryCov_9fa48("411"), rules.get(fieldPath(path)) ?? (stryMutAct_9fa48("412") ? ["Stryker was here"] : (stryCov_9fa48("412"), [])))), message]));
    for (const [path, broken] of rules) warn(stryMutAct_9fa48("413") ? {} : (stryCov_9fa48("413"), {
      operation,
      path,
      rule: broken.join(stryMutAct_9fa48("414") ? "" : (stryCov_9fa48("414"), "; ")),
      status: answer.status,
      requestId: requestIdOf(answer.headers)
    }));
    return value as T;
  }
}