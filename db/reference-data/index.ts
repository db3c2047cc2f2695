export { certificationOptions } from "./certification-options";
export { listCountries } from "./countries";
export { industrySectors } from "./industries";
export { canadianProvinces } from "./provinces";
export {
  formatUtcOffset,
  listTimezones,
  parseGmtOffset,
  type TimezoneOption,
  timezoneOffsetMinutes,
} from "./timezones";
export type { CodeName } from "./types";
export { usStates } from "./us-states";
