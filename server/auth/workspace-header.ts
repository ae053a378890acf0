// The request header that names the workspace the dashboard is looking at. Shared by the
// browser's tRPC client and the server's context; it imports nothing so both can use it.
export const WORKSPACE_HEADER = "x-svc-workspace";
