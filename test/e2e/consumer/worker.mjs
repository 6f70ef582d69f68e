// An edge worker (bundled with the `workerd` condition): the WebCrypto signer, as everywhere.
import * as sdk from "public-hub-sdk";
import * as server from "public-hub-sdk/server";
import { runChecks } from "./checks.mjs";

export default {
  async fetch(request) {
    const baseUrl = new URL(request.url).searchParams.get("api");
    return Response.json(await runChecks({ sdk, server, baseUrl, runtime: "workerd", expectSigner: "webcrypto" }));
  },
};
