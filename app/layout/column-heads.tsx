// The header row of a list table: one column header per name, and an optional last column whose
// name only screen readers hear (a column of buttons needs no visible heading).

export function ColumnHeads({ columns, action }: { columns: string[]; action?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th scope="col" key={column}>
            {column}
          </th>
        ))}
        {action ? (
          <th scope="col">
            <span className="visually-hidden">{action}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
