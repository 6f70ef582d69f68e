// The same route handler on Next's edge runtime (WebCrypto signer).
import { awardHandler } from "../../award-handler";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export const POST = awardHandler;
