// The POST handler both award routes share: Node.js and the edge runtime resolve
// `public-hub-sdk/server` each through their own export conditions.
import { HubError } from "public-hub-sdk";
import { HubServerClient, signerImplementation } from "public-hub-sdk/server";
import { hubOptions } from "./hub-options";

export async function awardHandler(request: Request): Promise<Response> {
  const { wallet, amount, ref } = (await request.json()) as { wallet: string; amount: number; ref: string };
  const server = new HubServerClient({ ...hubOptions(), secret: process.env.HUB_SECRET ?? "" });
  try {
    const result = await server.awardPoints({ wallet, amount, reason: "next-e2e", ref });
    return Response.json({ ok: true, result, signer: signerImplementation });
  } catch (error) {
    // The SDK's own words, so the e2e report says what it did.
    const detail = error instanceof HubError ? { name: error.name, message: error.message, ...("status" in error ? { status: error.status } : {}) } : { name: "Error", message: String(error) };
    return Response.json({ ok: false, error: detail, signer: signerImplementation }, { status: 502 });
  }
}
