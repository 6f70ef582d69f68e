import { QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HubClient } from "public-hub-sdk";
import { HubApp } from "./hub-app";

// The client id is public: reads need nothing secret, so this runs in the browser as it is.
// `?api=…&clientId=…&hub=…` points the page at another server (the e2e test uses a local one).
const params = new URLSearchParams(location.search);
const hub = new HubClient({
  baseUrl: params.get("api") ?? "https://hub.example.com/api/v1",
  clientId: params.get("clientId") ?? "pk_alpha_demo",
  hub: params.get("hub") ?? "alpha",
});
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <HubApp hub={hub} queryClient={queryClient} />
  </StrictMode>,
);
