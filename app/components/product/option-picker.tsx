import { cn } from "~/lib/cn";
import { isColourOption } from "~/rules/variant-picker.ts";
import {
  type ProductOption,
  type Selection,
  type ValueState,
  type Variant,
  valueStates,
} from "~/rules/variants.ts";

const stateText: Record<ValueState, string> = {
  available: "",
  "sold-out": "Out of Stock",
  unavailable: "Unavailable",
};

/**
 * The product page's options (issue 22): one group of choices per option, swatches for a colour
 * and buttons for the others (native radios, so arrows move within a group). Each value says
 * whether it is sold out or unavailable with the other options as chosen; a value no active
 * variant has can't be chosen.
 */
export function OptionPicker({
  options,
  variants,
  selection,
  onPick,
}: {
  options: ProductOption[];
  variants: Variant[];
  selection: Selection;
  onPick: (optionId: string, valueId: string) => void;
}) {
  return (
    <div className="space-y-4" data-testid="option-picker">
      {options.map((option) => {
        const states = valueStates(options, variants, selection, option.id);
        const chosen = option.values.find((v) => v.id === selection[option.id]);
        const colour = isColourOption(option);
        return (
          <fieldset key={option.id}>
            <legend className="mb-2 font-medium text-sm">
              {option.name}
              {chosen ? (
                <span className="font-normal text-muted-foreground">: {chosen.value}</span>
              ) : null}
            </legend>
            <div className="flex flex-wrap gap-2">
              {option.values.map((value) => {
                const state = states[value.id] ?? "unavailable";
                const offered = variants.some((v) => v.isActive && v.valueIds.includes(value.id));
                const note = stateText[state];
                return (
                  <label
                    key={value.id}
                    className={cn("relative", offered ? "cursor-pointer" : "cursor-not-allowed")}
                    title={note ? `${value.value}: ${note}` : value.value}
                  >
                    <input
                      type="radio"
                      name={`option-${option.id}`}
                      value={value.id}
                      checked={selection[option.id] === value.id}
                      disabled={!offered}
                      onChange={() => onPick(option.id, value.id)}
                      className="peer sr-only"
                    />
                    {colour ? (
                      <span
                        className={cn(
                          "relative block size-9 rounded-full border-2 border-border transition-shadow duration-150",
                          "peer-checked:border-background peer-checked:ring-2 peer-checked:ring-primary",
                          "peer-focus-visible:outline-2 peer-focus-visible:outline-ring peer-focus-visible:outline-offset-2",
                          state !== "available" && "opacity-60",
                        )}
                        style={{ backgroundColor: value.swatch ?? undefined }}
                      >
                        {value.swatch ? null : (
                          <span
                            aria-hidden="true"
                            className="grid size-full place-items-center text-xs"
                          >
                            {value.value.slice(0, 2)}
                          </span>
                        )}
                        {state !== "available" ? (
                          <span
                            aria-hidden="true"
                            className="absolute top-1/2 left-0 h-0.5 w-full -rotate-45 bg-foreground/70"
                          />
                        ) : null}
                      </span>
                    ) : (
                      <span
                        aria-hidden="true"
                        className={cn(
                          "block min-w-12 rounded-md border px-3 py-1.5 text-center text-sm transition-colors duration-150",
                          "peer-checked:border-primary peer-checked:bg-primary peer-checked:text-primary-foreground",
                          "peer-focus-visible:outline-2 peer-focus-visible:outline-ring peer-focus-visible:outline-offset-2",
                          state === "sold-out" && "text-muted-foreground line-through",
                          state === "unavailable" && "border-dashed text-muted-foreground",
                        )}
                      >
                        {value.value}
                      </span>
                    )}
                    <span className="sr-only">
                      {value.value}
                      {note ? ` (${note})` : ""}
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
