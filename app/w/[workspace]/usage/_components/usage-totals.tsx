type Counts = { whatsapp: number; email: number };

const count = new Intl.NumberFormat();

/** This month's live and test messages per channel (test messages spend no quota, D35). */
export function UsageTotals({ live, test }: { live: Counts; test: Counts }) {
  const rows = [
    { name: "WhatsApp", live: live.whatsapp, test: test.whatsapp },
    { name: "E-mail", live: live.email, test: test.email },
  ];
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
            <td className="number">{count.format(live.whatsapp + live.email)}</td>
            <td className="number">{count.format(test.whatsapp + test.email)}</td>
            <td className="number">{count.format(live.whatsapp + live.email + test.whatsapp + test.email)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
