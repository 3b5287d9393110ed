import { Ruler } from "lucide-react";
import { Button } from "~/components/ui/button";
import {
  formatSize,
  type LengthUnit,
  otherLikelyUnits,
  readingText,
  sizeInMm,
  UNIT_NAME,
} from "~/rules/model3d/units.ts";

type Size = { x: number; y: number; z: number };

/**
 * STL, OBJ and PLY files carry no unit: when the size suggests another one (a part drawn in
 * inches reads 25 times too small in millimetres), both readings are shown with a one-click
 * switch. A 3MF states its unit, so nothing is offered.
 */
export function UnitReadings({
  rawSize,
  fileUnit,
  unit,
  onChoose,
}: {
  /** The file's own numbers, scaled as chosen, before any unit. */
  rawSize: Size;
  fileUnit: string | null;
  unit: LengthUnit;
  onChoose: (unit: LengthUnit) => void;
}) {
  const others = otherLikelyUnits(rawSize, fileUnit, unit);
  if (fileUnit) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="unit-readings">
        Units as stated in the file.
      </p>
    );
  }
  if (others.length === 0) return null;
  return (
    <div
      className="grid gap-2 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
      data-testid="unit-readings"
    >
      <p className="flex items-start gap-2">
        <Ruler aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          This file does not say its unit. Read in {UNIT_NAME[unit]}, it is{" "}
          {formatSize(sizeInMm(rawSize, unit))}
          {others.map((u) => ` — or ${readingText(rawSize, u)}`).join("")}.
        </span>
      </p>
      <div className="flex flex-wrap gap-2">
        {others.map((u) => (
          <Button key={u} type="button" size="sm" variant="outline" onClick={() => onChoose(u)}>
            Use {UNIT_NAME[u]}
          </Button>
        ))}
      </div>
    </div>
  );
}
