// @ts-nocheck
export { ietfHub, type IetfHubOptions } from "./ietf-hub";
export { stripeHub } from "./stripe-hub";
export { railsHub } from "./rails-hub";
export type { Award, HubOptions, SeenRequest, TestHub } from "./hub";
