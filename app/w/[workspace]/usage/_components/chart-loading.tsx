import { Loading } from "@/app/_components/query-state.tsx";

/**
 * The daily chart's place while recharts loads: the chart's own box and the line of its
 * "Show the numbers" toggle, so nothing below moves when the chart arrives. (Six skeleton lines
 * alone were some 200 px shorter: the overview's lower panels jumped down under a pointer about
 * to click one of their links.)
 */
export function ChartLoading() {
  return (
    <div className="daily-chart">
      <div className="chart-box">
        <Loading what="the chart" lines={6} />
      </div>
      <div aria-hidden="true">&nbsp;</div>
    </div>
  );
}
