/**
 * Option names and missing values (issue 23, item 4): a wrong name is refused naming the nearest
 * known one, a secret handed to the browser client is refused pointing at HubServerClient, and a
 * missing or empty value says so. Through the public API only.
 */
import { describe, expect, it } from "vitest";
import { defineTelemetry, HubClient, HubValidationError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";

const base = { baseUrl: "https://h.test/api/v1", clientId: "pk_alpha", hub: "alpha" };
const fetch = (async () => Response.json({})) as typeof globalThis.fetch;

/** The error a constructor throws. */
function thrown(build: () => unknown): HubValidationError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(HubValidationError);
    return error as HubValidationError;
  }
  throw new Error("nothing was thrown");
}

describe("unknown option names", () => {
  it.each(["timout", "retries", "maxconcurrency", "unwarp"])("HubClient: %s is named as it was given (no guess: its bytes went to the pace, see docs/build-notes.md)", (name) => {
    const error = thrown(() => new HubClient({ ...base, [name]: 1 } as never));
    expect(error.issues).toEqual([{ path: [name], code: "unrecognized_keys", message: `unknown option "${name}"` }]);
  });

  it("HubServerClient: secert is named", () => {
    const error = thrown(() => new HubServerClient({ ...base, secret: "s", secert: "s" } as never));
    expect(error.message).toContain('unknown option "secert"');
  });

  it("a server client's option given to a browser client says where it belongs", () => {
    const error = thrown(() => new HubClient({ ...base, secret: "s" } as never));
    expect(error.issues).toEqual([{ path: ["secret"], code: "unrecognized_keys", message: "secret is for HubServerClient, on a server" }]);
  });

  it("a name far from every known one is named without a guess", () => {
    expect(thrown(() => new HubClient({ ...base, zzzzzzzz: 1 } as never)).message).toMatch(/unknown option "zzzzzzzz"$/);
  });

  it("nested names are checked too", () => {
    const error = thrown(() => new HubClient({ ...base, retry: { limt: 3, maxBackof: 2 } } as never));
    expect(error.issues.map((issue) => issue.message)).toEqual(['unknown option "retry.limt"', 'unknown option "retry.maxBackof"']);
  });

  it("per-call names too, before anything is sent", async () => {
    let sent = 0;
    const hub = new HubClient({ ...base, fetch: (async () => (sent++, Response.json({}))) as typeof globalThis.fetch });
    await expect(hub.getHub({ timout: 5 } as never)).rejects.toThrow(/unknown option "timout"$/);
    await expect(hub.getLeaderboard({ limt: 5 } as never)).rejects.toThrow(/unknown option "limt"$/);
    expect(sent).toBe(0);
  });

  it("the names other issues add (schemas, validate, telemetry) are accepted already", () => {
    expect(() => new HubClient({ ...base, fetch, schemas: {}, validate: "off", telemetry: defineTelemetry({ name: "t", startCall: () => undefined }) } as never)).not.toThrow();
  });
});

describe("a secret handed to the browser client", () => {
  it.each(["secret", "signingKey"])("%s is refused, pointing at HubServerClient, without echoing it", (name) => {
    const error = thrown(() => new HubClient({ ...base, [name]: "sekrit-value-123" } as never));
    expect(error.message).toContain("HubServerClient");
    expect(error.message).not.toContain("sekrit-value-123");
  });

  it("HubServerClient takes it (its own names pass through HubClient's constructor)", () => {
    expect(() => new HubServerClient({ ...base, fetch, secret: "s", dangerouslyAllowBrowser: false })).not.toThrow();
  });
});

describe("a missing or empty value says so", () => {
  it("an unset HUB_CLIENT_ID", () => {
    const error = thrown(() => new HubClient({ ...base, clientId: process.env.HUB_CLIENT_ID_THAT_IS_NOT_SET! }));
    expect(error.issues).toEqual([{ path: ["clientId"], code: "invalid_type", message: "clientId is missing (is its environment variable set?)" }]);
  });

  it("an empty client id", () => {
    expect(thrown(() => new HubClient({ ...base, clientId: "" })).issues[0]!.message).toBe("clientId is empty (is its environment variable set?)");
  });

  it.each([
    [undefined, "hub slug is missing"],
    [null, "hub slug is missing"],
    ["", "hub slug must not be empty"],
  ])("hub %j: %s", (hub, message) => {
    expect(thrown(() => new HubClient({ ...base, hub } as never)).issues).toEqual([expect.objectContaining({ path: ["hub"], message })]);
  });

  it("a missing wallet", async () => {
    await expect(new HubClient({ ...base, fetch }).getHolder(undefined as never)).rejects.toThrow("wallet is missing");
  });
});
