// @ts-nocheck
import base from "/work/main/stryker.config.mjs";
export default { ...base, incremental: false, reporters: ["json", "progress-append-only"], jsonReporter: { fileName: process.env.OUT }, thresholds: { high: 95, low: 90, break: null }, tempDirName: process.env.TMPD };
