/** Name of the signed session cookie; its presence means "render per user, do not serve the cache". */
export const SESSION_COOKIE_NAME = "__session";
