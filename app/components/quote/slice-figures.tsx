import type { StoredSlice } from "~/rules/slicing.ts";
import { sliceFigures } from "~/rules/slicing.ts";

/**
 * For staff: the quote engine's instant figures beside the slicer's (grams, support, time and the
 * price they give), and what became of the price (docs/decisions/0020). Nothing when the part was
 * never sent to the slicer.
 */
export function SliceFigures({
  slice,
  compact = false,
}: {
  slice: StoredSlice | null;
  compact?: boolean;
}) {
  const figures = sliceFigures(slice);
  if (!figures) return null;
  if (compact) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="quote-slice">
        <span className="font-medium">Slicer:</span> {figures.status}
        {figures.rows
          .filter((r) => r.sliced !== null)
          .map((r) => ` · ${r.label} ${r.sliced} (instant ${r.instant})`)
          .join("")}
      </p>
    );
  }
  return (
    <div className="mt-4 border-t pt-4" data-testid="quote-slice">
      <h3 className="font-medium text-sm">Slicer</h3>
      <p className="mt-1 text-muted-foreground text-sm" data-testid="quote-slice-status">
        {figures.status}
      </p>
      <table className="mt-2 w-full text-sm">
        <thead>
          <tr className="text-left text-muted-foreground">
            <th scope="col" className="font-normal">
              Per piece
            </th>
            <th scope="col" className="font-normal">
              Instant estimate
            </th>
            <th scope="col" className="font-normal">
              Slicer
            </th>
          </tr>
        </thead>
        <tbody>
          {figures.rows.map((r) => (
            <tr key={r.label}>
              <th scope="row" className="font-normal text-muted-foreground">
                {r.label}
              </th>
              <td className="tabular-nums">{r.instant}</td>
              <td
                className="tabular-nums"
                data-testid={`quote-slice-${r.label.toLowerCase().replace(/ /g, "-")}`}
              >
                {r.sliced ?? "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
