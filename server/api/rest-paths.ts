/** The public base path (D9): `{base_url}` = `<origin>/api/v1`. */
export const API_PREFIX = "/api/v1";
