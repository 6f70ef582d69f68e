// A route handler on the Node.js runtime, inside Next's patched fetch.
import { awardHandler } from "../../award-handler";

export const dynamic = "force-dynamic";

export const POST = awardHandler;
