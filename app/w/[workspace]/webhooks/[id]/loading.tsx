import { Loading } from "@/app/_components/query-state.tsx";

/**
 * Shown at once when a link to an endpoint is followed: the page's server render (the member
 * check, the endpoint looked up) waits on the database, and without this boundary the browser
 * stayed on the page it left, URL and all, until that render came back (issue 46 item 10: 20 s
 * on a busy server, and as long as the store is held by another client).
 */
export default function EndpointLoading() {
  return <Loading what="the delivery log" />;
}
