import { CHANNEL_TYPES, type ChannelType } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";

type Counts = Record<ChannelType, number>;

const count = new Intl.NumberFormat();

/** This month's live and test messages per channel (test messages spend no quota, D35). */
export function UsageTotals({ live, test }: { live: Counts; test: Counts }) {
  const rows = CHANNEL_TYPES.map((type) => ({ name: CHANNEL_LABEL[type], live: live[type], test: test[type] }));
  const sum = (of: (row: (typeof rows)[number]) => number) => rows.reduce((n, row) => n + of(row), 0);
  return (
    <div className="table-wrap narrow">
      <table>
        <caption className="visually-hidden">Live and test messages this month</caption>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col" className="number">
              Live
            </th>
            <th scope="col" className="number">
              Test
            </th>
            <th scope="col" className="number">
              All
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row">{row.name}</th>
              <td className="number">{count.format(row.live)}</td>
              <td className="number">{count.format(row.test)}</td>
              <td className="number">{count.format(row.live + row.test)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="number">{count.format(sum((row) => row.live))}</td>
            <td className="number">{count.format(sum((row) => row.test))}</td>
            <td className="number">{count.format(sum((row) => row.live + row.test))}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
