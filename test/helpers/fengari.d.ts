declare module "fengari";
