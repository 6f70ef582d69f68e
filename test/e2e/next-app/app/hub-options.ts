// Read at request time from the environment `next start` was given, as a deployed app would.
export function hubOptions() {
  const { HUB_BASE_URL, HUB_CLIENT_ID, HUB_SLUG } = process.env;
  if (!HUB_BASE_URL || !HUB_CLIENT_ID || !HUB_SLUG) throw new Error("HUB_BASE_URL, HUB_CLIENT_ID and HUB_SLUG are required");
  return { baseUrl: HUB_BASE_URL, clientId: HUB_CLIENT_ID, hub: HUB_SLUG };
}
