// @ts-nocheck
import { QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HubClient } from "public-hub-sdk";
import { HubApp } from "./hub-app";
import { schemas } from "./hub-schemas";

// The client id is public: reads need nothing secret, so this runs in the browser as it is.
// By default it reads the local mock (`npm run mock` in another terminal: `public-hub mock` on
// port 4010, demo data, no key needed). `?api=…&clientId=…&hub=…` points it at another server.
const params = new URLSearchParams(location.search);
const hub = new HubClient({
  baseUrl: params.get("api") ?? "http://127.0.0.1:4010/api/v1",
  clientId: params.get("clientId") ?? "pk_alpha_demo",
  hub: params.get("hub") ?? "alpha",
  schemas, // the shapes this app reads, declared once (./hub-schemas.ts)
});
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <HubApp hub={hub} queryClient={queryClient} />
  </StrictMode>,
);
