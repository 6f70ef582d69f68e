// The browser page: reads from the API on another origin (a real CORS preflight), and shows that
// the server entry refuses to run here.
import * as sdk from "public-hub-sdk";
import * as server from "public-hub-sdk/server";
import { runChecks } from "./checks.mjs";

const baseUrl = new URLSearchParams(location.search).get("api");
const results = await runChecks({ sdk, server: undefined, baseUrl, runtime: "chromium" });
const refusal = (() => {
  try {
    new server.HubServerClient({ baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: "never-in-a-browser" });
    return { name: "server entry refuses in the browser", ok: false, error: "constructed" };
  } catch (error) {
    return { name: "server entry refuses in the browser", ok: error instanceof server.BrowserNotAllowedError && server.signerImplementation === "none", error: String(error) };
  }
})();
const output = document.getElementById("result");
output.textContent = JSON.stringify([...results, refusal]);
output.dataset.done = "true";
