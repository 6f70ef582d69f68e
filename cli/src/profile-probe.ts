/**
 * `doctor --profile`: how a live hub speaks, learned from its answers. Reads, an unknown route, and
 * two signed writes no hub can credit (a wrong signature; a right one over an invalid award); only
 * with `--probe-wallet` one real award of 1 point, sent again to see how a duplicate and a conflict
 * are answered. Every field is read from what the hub declares (statuses, headers, keys), never
 * from the words of a message; a signal is written only when it tells its answer apart from every
 * other answer the probes provoked.
 */
import { randomBytes } from "node:crypto";
import { answerSignals, awardOutcome, errorFields, HubClient, HubPagingError, iterateLeaderboard, leaderboardRows, type HubPaging, type HubProfile, type HubRateLimitHeaders, type HubSignal } from "public-hub-sdk";
import { awardPath, clockOffsetOf, parseHubProfile, refusalKind, signRequest, type KeyMaterial } from "public-hub-sdk/server";
import type { Check } from "./commands/doctor";
import type { Connection } from "./credentials";
import { errorFormatOf } from "./error-format";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** One answer: what was asked, its status and headers, its body parsed when JSON (else its text). */
interface Answer {
  what: string;
  url: string;
  status: number;
  headers: Headers;
  body: unknown;
}

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;
// An answer about the request, not a limit or an outage in front of it.
const judged = (answer: Answer) => !ok(answer) && answer.status !== 429 && answer.status < 500;
const said = (answer: Answer) => {
  const code = ok(answer) ? undefined : errorFields(answer.body).code;
  return `${answer.status}${code ? ` ${code}` : ""}`;
};
// Keys an envelope may hold beside its payload.
const META = /^(_?meta(data)?|_?links|request_?id|requestId|success|ok|status|timestamp)$/i;
const FLAGS = ["duplicate", "replayed", "idempotent_replayed", "idempotentReplayed"];

/** The rate-limit dialect of one answer's headers, and the reset it announced. */
function rateLimitOf(headers: Headers): { style: HubRateLimitHeaders; reset: number | undefined } | undefined {
  const structured = headers.get("ratelimit") ?? "";
  const num = (value: string | null | undefined) => (value != null && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined);
  const param = (key: string) => num(new RegExp(`(?:^|[;,])\\s*${key}=([\\d.]+)`).exec(structured)?.[1]);
  if (/;\s*[rt]=/.test(structured)) return { style: "ietf", reset: param("t") };
  if (/(^|,)\s*(limit|remaining|reset)=/.test(structured)) return { style: "ietf-draft7", reset: param("reset") };
  if (headers.has("ratelimit-remaining")) return { style: "ietf-legacy", reset: num(headers.get("ratelimit-reset")) };
  if (headers.has("x-ratelimit-remaining")) return { style: "x-ratelimit", reset: num(headers.get("x-ratelimit-reset")) };
  return undefined;
}

/**
 * How the second answer to the same award differs from the first, as the hub declares it: its
 * status (with its code, for a refusal), an `Idempotent-Replayed` header, a 2xx body's flag or
 * `status` field (at the top or one envelope deep) the first answer did not have.
 */
function duplicateSignal(first: Answer, second: Answer): HubSignal | "indistinguishable" {
  const signal: HubSignal = { status: second.status };
  const code = ok(second) ? undefined : errorFields(second.body).code;
  if (code !== undefined) signal.code = code;
  const replayed = second.headers.get("idempotent-replayed");
  if (replayed !== null && replayed !== first.headers.get("idempotent-replayed")) signal.header = { name: "Idempotent-Replayed", value: replayed.trim() };
  const holders = (body: unknown) => (isObject(body) ? [body, ...Object.values(body).filter(isObject)] : []);
  for (const holder of ok(second) ? holders(second.body) : []) {
    for (const name of [...FLAGS, "status"]) {
      const value = holder[name];
      const flags = FLAGS.includes(name) ? value === true : typeof value === "string";
      if (flags && !signal.field && !holders(first.body).some((earlier) => earlier[name] === value)) signal.field = { name, value: value as string | boolean };
    }
  }
  return second.status === first.status && !signal.header && !signal.field ? "indistinguishable" : signal;
}

const FORMS = ["relay", "cursor", "page", "has-more", "next", "link"] as const satisfies readonly HubPaging[];

/**
 * How the leaderboard pages, as the SDK reads it: `iterateLeaderboard` over two pages of 2, first
 * inferring, then with each form pinned; the first form that reads a second page of other rows is
 * the hub's. `problem` when the SDK refused to go on (a next page elsewhere, a form it cannot follow).
 */
async function pagesOf(conn: Connection, envelope: string | undefined, rows: string): Promise<{ form?: HubPaging; rows?: number; problem?: string }> {
  const read = async (pages?: HubPaging) => {
    let requests = 0;
    const profile: HubProfile = { version: 1, ...(envelope !== undefined && { envelope }), leaderboard: { rows, ...(pages && { pages }) } };
    const hub = new HubClient({ baseUrl: conn.baseUrl, clientId: conn.clientId, hub: conn.hub, retry: 0, logLevel: "off", profile, onRequest: (event) => void (event.type === "request" && requests++) });
    const seen: unknown[] = [];
    try {
      for await (const row of iterateLeaderboard(hub, { limit: 2 }, { maxPages: 2 })) seen.push(row);
    } catch (error) {
      // Two pages read and more announced is a form that works; anything else is why not.
      if (!(error instanceof HubPagingError && error.reason === "max-pages")) return { requests, seen, problem: (error as Error).message };
    }
    return { requests, seen };
  };
  const inferred = await read();
  if (inferred.requests < 2) return inferred.problem === undefined ? {} : { problem: inferred.problem };
  for (const form of FORMS) {
    const { requests, seen } = await read(form);
    const first = JSON.stringify(seen[0]);
    if (requests >= 2 && seen.length > 2 && seen.slice(2).every((row) => JSON.stringify(row) !== first)) return { form, rows: seen.length - 2 };
  }
  return { problem: `a second page was read, but no one form reads it alone (${inferred.seen.length} rows over ${inferred.requests} requests)` };
}

/**
 * Probes the hub and returns what it learned, checked by `parseHubProfile`, with one line per
 * field: `ok` where an answer showed it, `not checked` (and why) where none could; those reasons
 * are the profile's `notes`.
 */
export async function probeProfile(conn: Connection, probeWallet: string | undefined): Promise<{ profile: HubProfile; learned: Check[] }> {
  const path = awardPath({ baseUrl: conn.baseUrl, hub: conn.hub });
  const hubPath = path.replace(/\/bits\/earn$/, "");
  const nonce = randomBytes(6).toString("hex");
  const answers: Answer[] = [];
  const learned: Check[] = [];
  let skewMs = 0;
  const send = async (what: string, url: URL | string, init: RequestInit = {}) => {
    // Bounded as the SDK's attempts are (10 s): a probe never hangs doctor.
    const signal = AbortSignal.timeout(10_000);
    // A redirect is not followed: the client id and a signed award go to the hub's origin only.
    const response = await fetch(url, { ...init, signal, redirect: "manual" });
    const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    if (location !== null) learned.push({ name: "redirect", status: "info", detail: `${init.method ?? "GET"} ${new URL(url).pathname} was answered ${response.status} to ${new URL(location, url).href}: not followed (doctor sends the key and signatures to the hub's origin only)` });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    skewMs = clockOffsetOf(response.headers) ?? skewMs;
    const answer: Answer = { what, url: String(url), status: response.status, headers: response.headers, body };
    answers.push(answer);
    return answer;
  };
  const read = (what: string, to: string) => send(what, new URL(to, conn.baseUrl), { headers: { "x-api-key": conn.clientId } });
  const award = async (what: string, key: KeyMaterial, fields: Json) => {
    const body = JSON.stringify(fields);
    const timestamp = String(Math.floor((Date.now() + skewMs) / 1000));
    const signature = await signRequest({ ...key, timestamp, method: "POST", path, body });
    const headers = { "x-api-key": conn.clientId, "x-api-timestamp": timestamp, "x-api-signature": signature, "content-type": "application/json" };
    return send(what, new URL(path, conn.baseUrl), { method: "POST", headers, body });
  };

  const learn = (name: string, detail: string) => learned.push({ name, status: "ok", detail });
  const miss = (name: string, detail: string) => learned.push({ name, status: "not checked", detail });
  // The hub it was learned from: a client given it for another hub says so.
  const profile: HubProfile = { version: 1, hub: { baseUrl: conn.baseUrl, slug: conn.hub } };
  const notes: string[] = [];

  // The reads: discovery (no key), the hub, a leaderboard page of 2, an unknown wallet, an unknown route.
  const unknown = `0x${randomBytes(20).toString("hex")}`;
  const reads = [
    await send("discovery", new URL(hubPath.replace(/\/hub\/[^/]*$/, ""), conn.baseUrl)),
    await read("hub", hubPath),
    await read("leaderboard", `${hubPath}/leaderboard?limit=2`),
    await read("holder", `${hubPath}/holder/${unknown}`),
    await read("stake-status", `${hubPath}/stake-status?wallet=${unknown}`),
  ];
  const route = await read("unknown route", `${hubPath}/public-hub-doctor-no-such-route`);

  const successes = reads.filter(ok);
  const first = successes[0]?.body;
  const envelope = Object.keys(isObject(first) ? first : {}).find((key) =>
    successes.every(({ body }) => isObject(body) && typeof body[key] === "object" && body[key] !== null && Object.keys(body).every((other) => other === key || META.test(other))),
  );
  const unwrap = (body: unknown) => (envelope !== undefined && isObject(body) && envelope in body ? body[envelope] : body);
  const whats = successes.map((answer) => answer.what).join(", ");
  if (successes.length < 2) miss("envelope", `only ${successes.length} of the reads succeeded: no envelope can be told from it`);
  else if (envelope === undefined) learn("envelope", `none: the ${successes.length} success bodies (${whats}) are their payloads`);
  else {
    profile.envelope = envelope;
    learn("envelope", `"${envelope}": each of the ${successes.length} success bodies (${whats}) holds its payload there`);
  }

  const page = reads[2]!;
  const board = unwrap(page.body);
  let rows: unknown[] | undefined;
  try {
    rows = ok(page) && (isObject(board) || Array.isArray(board)) ? leaderboardRows(board) : undefined;
  } catch {
    // Rows in no shape the SDK reads: not learned.
  }
  const key = Array.isArray(board) ? "" : !isObject(board) ? undefined : (Object.keys(board).find((name) => board[name] === rows) ?? (Array.isArray(board.edges) ? "edges.node" : undefined));
  if (rows === undefined || key === undefined) miss("leaderboard", `GET leaderboard?limit=2 answered ${said(page)} with rows in no shape doctor reads (an array, a key holding one, Relay edges)`);
  else {
    profile.leaderboard = { rows: key };
    learn("leaderboard.rows", key === "" ? "a bare array" : `under "${key}" (${rows.length} rows for limit=2)`);
    // Pages, read by the SDK itself (iterateLeaderboard: its parsers, its transport, never another
    // origin): a form is written only from a second page it read in that form.
    const pages = await pagesOf(conn, envelope, key);
    if (pages.form !== undefined) {
      profile.leaderboard.pages = pages.form;
      learn("leaderboard.pages", `${pages.form}: the next page, read in that form, gave ${pages.rows} other rows`);
    } else if (pages.problem !== undefined) miss("leaderboard.pages", pages.problem);
    else if (rows.length >= 2) {
      profile.leaderboard.pages = "none";
      learn("leaderboard.pages", "none: a full page (2 rows for limit=2) that says nothing of another");
    } else miss("leaderboard.pages", `the leaderboard has ${rows.length} row(s), fewer than limit=2: whether it pages cannot be told`);
  }

  // Two writes no hub can credit: no wallet, a negative amount. One signed with a random key.
  const invalid = { amount: -1, reason: "public-hub doctor probe (invalid on purpose)", ref: `public-hub-doctor-invalid-${nonce}` };
  let invalidAnswer: Answer | undefined;
  let forgedAnswer: Answer | undefined;
  if (!conn.key) miss("award", "no key (HUB_SECRET, HUB_SIGNING_KEY or --secret-file): the signed probes were skipped");
  else {
    const forged: Answer = await award("wrong signature", { signingKey: randomBytes(32).toString("hex") }, invalid);
    forgedAnswer = forged;
    const kind = refusalKind({ status: forged.status, ...errorFields(forged.body) });
    const why = kind === "credentials" ? " for its signature" : kind === "request" ? " for its body (this hub judges the body before the signature)" : "";
    if (ok(forged)) learned.push({ name: "wrong signature", status: "failed", detail: `a write signed with a random key was accepted (${forged.status}): the hub does not check signatures (it named no wallet: nothing was credited)` });
    else {
      learned.push({ name: "wrong signature", status: "info", detail: `refused with ${said(forged)}${why} (a note, not a field of the profile)` });
      notes.push(`a write signed with a wrong key was refused with ${said(forged)}${why}`);
    }
    invalidAnswer = await award("invalid award", conn.key, invalid);
    const fields = errorFields(invalidAnswer.body).issues.map((issue) => issue.path.join("."));
    learned.push({ name: "invalid award", status: ok(invalidAnswer) ? "failed" : "info", detail: `a signed award with no wallet and amount -1 was answered ${said(invalidAnswer)}${fields.length ? ` naming ${fields.join(", ")}` : ""}` });
  }

  // The hub's own refusals first (a validator's body may be a library's, a router's 404 a framework's).
  const evidence = [forgedAnswer, invalidAnswer, route, reads[3]!].filter((answer): answer is Answer => answer !== undefined && judged(answer));
  const errors = errorFormatOf(evidence.map((answer) => answer.body));
  if (errors === undefined) miss("errors", evidence.length ? `no known shape in ${evidence.map(said).join(", ")}` : "no error answer to classify");
  else {
    profile.errors = errors;
    learn("errors", `${errors}, from ${evidence.map((answer) => `the ${said(answer)} of the ${answer.what}`).join(", ")}`);
  }

  if (probeWallet !== undefined && conn.key) {
    const fields = { wallet: probeWallet, amount: 1, reason: "public-hub doctor probe", ref: `public-hub-doctor-${nonce}` };
    const applied = await award("probe award", conn.key, fields);
    if (!ok(applied)) {
      learned.push({ name: "probe", status: "info", detail: `did not credit ${probeWallet}: the award was refused with ${said(applied)}` });
      miss("award", `the probe award was refused (${said(applied)})`);
    } else {
      const again = await award("same award again", conn.key, fields);
      const other = await award("same ref, amount 2", conn.key, { ...fields, amount: 2 });
      const unsure = ok(other) && awardOutcome(other, { award: fields }) !== "duplicate" ? `; the same ref with amount 2 was answered ${other.status} as well: whether the hub credited it cannot be told from its answer` : "";
      learned.push({ name: "probe", status: "info", detail: `credited 1 point to ${probeWallet} (ref ${fields.ref}); answers ${said(applied)}, ${said(again)}, ${said(other)}${unsure}` });
      profile.award = { status: applied.status };
      learn("award.status", `${applied.status}, the probe award's`);
      // A signal is kept only if no other answer the probes provoked shows it (else it would read that
      // answer, an invalid award, as this one); the changed award answered as the repeat is said apart.
      const same = (a: Answer, b: Answer) => a.status === b.status && JSON.stringify(errorFields(a.body)) === JSON.stringify(errorFields(b.body));
      const sharedWith = (signal: HubSignal, own: Answer) => answers.find((answer) => answer !== own && answer !== applied && !same(answer, own) && answerSignals(signal, answer));
      const rule = (answer: Answer) => `the SDK's own rule reads it as ${awardOutcome(answer, { award: fields })}`;
      const duplicate = duplicateSignal(applied, again);
      const alike = duplicate === "indistinguishable" ? undefined : sharedWith(duplicate, again);
      if (!judged(again) && !ok(again)) miss("award.duplicate", `the same award again was answered ${said(again)} (a limit or an outage, not an answer about the ref)`);
      else if (alike) miss("award.duplicate", `not pinned: the same award again was answered ${said(again)}, and so was the ${alike.what}; no status, code, header or field tells them apart (${rule(again)})`);
      else {
        profile.award.duplicate = duplicate;
        learn("award.duplicate", `${JSON.stringify(duplicate)}, from the same award sent again`);
      }
      const otherCode = errorFields(other.body).code;
      const conflict: HubSignal | undefined = judged(other) ? { status: other.status, ...(otherCode !== undefined && { code: otherCode }) } : undefined;
      const conflictAlike = conflict && sharedWith(conflict, other);
      if (conflict && same(other, again)) {
        profile.award.conflict = "indistinguishable";
        learn("award.conflict", `"indistinguishable": the same ref with amount 2 was answered ${said(other)}, as the same award again was: the hub does not tell a repeat from a changed award (${rule(other)})`);
      } else if (conflict && conflictAlike) miss("award.conflict", `not pinned: the same ref with amount 2 was answered ${said(other)}, and so was the ${conflictAlike.what} (${rule(other)})`);
      else if (conflict) {
        profile.award.conflict = conflict;
        learn("award.conflict", `${JSON.stringify(conflict)}, from the same ref with amount 2`);
      } else miss("award.conflict", `the same ref with amount 2 was answered ${said(other)}${ok(other) ? ": the hub does not refuse a ref sent again with other parameters" : ""}`);
    }
  } else if (conn.key) miss("award", "needs --probe-wallet WALLET (it credits that wallet 1 point): how an award, a duplicate and a conflict are answered");

  const ids = (headers: Headers) => ["request-id", "x-request-id"].find((name) => headers.has(name)) ?? [...headers.keys()].find((name) => /(request-?id|correlation-id)$/.test(name));
  const idHeader = answers.map((answer) => ids(answer.headers)).find((name) => name !== undefined);
  if (idHeader === undefined) {
    // Declared absent, so that the mock sends none either (an inferred field would get the mock's default).
    profile.requestIdHeader = null;
    learn("requestIdHeader", `none: none of the ${answers.length} answers named a request id`);
  } else {
    profile.requestIdHeader = idHeader;
    learn("requestIdHeader", `${idHeader}, on ${answers.filter((answer) => answer.headers.has(idHeader)).length} of ${answers.length} answers`);
  }

  const limits = answers.map((answer) => rateLimitOf(answer.headers)).filter((limit) => limit !== undefined);
  const style = limits[0]?.style ?? "none";
  const reset = limits.find((limit) => limit.style === style && limit.reset !== undefined)?.reset;
  const form = reset === undefined ? undefined : reset >= 1e12 ? "epoch-ms" : reset >= 1e9 ? "epoch-seconds" : "seconds";
  profile.rateLimit = { headers: style, ...(form !== undefined && { reset: form }) };
  learn("rateLimit", style === "none" ? `none: no rate-limit field on the ${answers.length} answers` : `${style}${form ? `, reset in ${form}` : ""}, on ${limits.filter((limit) => limit.style === style).length} of ${answers.length} answers`);
  if (style !== "none") miss("rateLimit.resetLagSeconds", "one answer cannot tell how late the announced reset is after the window really ends; declare it by hand if yours is (slowapi's is 1)");

  // The fields first, then what the probes reported.
  learned.sort((a, b) => Number(a.status === "info" || a.status === "failed") - Number(b.status === "info" || b.status === "failed"));
  notes.push(...learned.filter((line) => line.status === "not checked").map((line) => `${line.name}: ${line.detail}`));
  if (notes.length > 0) profile.notes = notes;
  return { profile: parseHubProfile(profile), learned };
}
