// CommonJS consumers: require() of every entry resolves, and the CJS build works.
const sdk = require("public-hub-sdk");
const server = require("public-hub-sdk/server");
const mock = require("public-hub-sdk/mock");

const problems = [];
if (typeof sdk.HubClient !== "function") problems.push("HubClient missing");
if (typeof mock.createHubMock !== "function") problems.push("createHubMock missing");
if (server.signerImplementation !== "webcrypto") problems.push(`signer ${server.signerImplementation}`);
if (!(new server.HubServerClient({ baseUrl: "https://h.example", clientId: "c", hub: "a", secret: "s" }) instanceof sdk.HubClient)) {
  problems.push("HubServerClient is not a HubClient across CJS entries");
}
server
  .signRequest({ secret: "s", timestamp: "1", method: "POST", path: "/api/v1/hub/x/bits/earn", body: "" })
  .then((signature) => {
    if (signature !== "c35601138ce16cf2f899f3ea65374273f973ae3926b12fe90ec23f9c0ef1d858") problems.push("bad signature");
    console.log(JSON.stringify(problems));
  });
