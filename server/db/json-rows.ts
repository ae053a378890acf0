/**
 * The rows of a JSON array parameter as a table, for a statement that joins them to a table
 * that grows (the batched writes). The planner counts a JSON set as 100 rows whatever it
 * holds, and 100 probes of an index cost more than a sequential scan of a table of fewer than
 * about 40,000 rows: a batch of 3 then read the whole table. The LIMIT tells it the number,
 * since such a statement is planned for its parameters' values (client.ts, `statementName`).
 */
export function jsonRows(param: string, columns: string): string {
  return `(SELECT * FROM json_to_recordset(${param}::json) AS r(${columns}) LIMIT json_array_length(${param}::json))`;
}
