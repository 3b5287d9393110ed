import { LoaderCircle } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "~/components/ui/select";
import { type FieldErrors, fieldErrors, formFields } from "~/rules/account-schemas.ts";
import {
  ADDRESS_LABELS,
  type AddressLabel,
  addressSchema,
  addressText,
  DEFAULT_COUNTRY,
  digitsOnly,
  PIN_DIGITS,
  type SavedAddress,
} from "~/rules/address-schema.ts";
import { deliveryText } from "~/rules/delivery.ts";
import { indianMobile, mobileInput } from "~/rules/phone.ts";
import { fetchEstimate, rememberedPin } from "../shipping/pin-store";
import { FormAlert } from "./form-alert";
import { errorId, FieldError, FormField } from "./form-field";

/** A save always takes at least this long, so the locked dialog never just flickers (SPEC.md §4). */
export const MIN_SAVE_MS = 1000;

/** What the /addresses action answers to a save. */
export type SaveAddressResult =
  | { kind: "saved"; addressId: string }
  | { kind: "invalid"; fieldErrors: FieldErrors }
  | { kind: "not-found" }
  | { kind: "failed"; message: string };

/**
 * Add or edit an address. Every field is required; the phone and PIN inputs keep digits only.
 * While saving, the form is locked and the dialog can't be closed.
 */
export function AddressDialog({
  open,
  address,
  onClose,
}: {
  open: boolean;
  /** The address being edited; null to add one. */
  address: SavedAddress | null;
  onClose: () => void;
}) {
  const fetcher = useFetcher<SaveAddressResult>();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [label, setLabel] = useState<AddressLabel>(address?.label ?? "Home");
  const [phone, setPhone] = useState(address?.phone ?? "");
  const [postalCode, setPostalCode] = useState(address?.postalCode ?? "");
  const [city, setCity] = useState(address?.city ?? "");
  const [state, setState] = useState(address?.state ?? "");
  const startedAt = useRef(0);
  const lookup = useRef<AbortController | null>(null);
  const filled = useRef({ city: "", state: "" });

  // A complete PIN fills the city and state from India's PIN directory (issue 24); a PIN it
  // doesn't have is pointed out at once (the server refuses it on save as well).
  const pinTyped = useCallback((pin: string) => {
    setPostalCode(pin);
    lookup.current?.abort();
    if (!/^[1-9]\d{5}$/.test(pin)) return;
    const controller = new AbortController();
    lookup.current = controller;
    fetchEstimate(pin, { kind: "cart" }, controller.signal)
      .then((res) => {
        if (controller.signal.aborted) return;
        if (res.kind === "estimate") {
          // Fill what is empty or was filled from an earlier PIN; never what the customer typed
          // ("Mysuru" stays, though the directory says Mysore).
          const before = filled.current;
          const fill = (typed: string, key: "city" | "state", value: string) =>
            typed.trim() === "" || typed === before[key] ? value : typed;
          setCity((typed) => fill(typed, "city", res.district));
          setState((typed) => fill(typed, "state", res.state));
          filled.current = { city: res.district, state: res.state };
          setErrors(({ postalCode: _, city: __, state: ___, ...rest }) => rest);
        } else if (res.kind === "unknown-pin") {
          setErrors((e) => ({ ...e, postalCode: deliveryText.pinNotFound }));
        }
      })
      .catch(() => {
        // Offline or refused: the customer types the city and state themselves.
      });
  }, []);

  // A new address starts from the PIN this browser checked delivery for.
  useEffect(() => {
    if (address) return;
    const pin = rememberedPin();
    if (pin) pinTyped(pin);
    return () => lookup.current?.abort();
  }, [address, pinTyped]);
  const handled = useRef(new WeakSet<object>());

  // The answer arrives: wait out the rest of the minimum save time, then close or explain.
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current.has(result)) return;
    handled.current.add(result);
    const wait = Math.max(0, startedAt.current + MIN_SAVE_MS - Date.now());
    const timer = setTimeout(() => {
      setSaving(false);
      if (result.kind === "saved") {
        onClose();
      } else if (result.kind === "invalid") {
        setErrors(result.fieldErrors);
      } else if (result.kind === "not-found") {
        setFailure("This address no longer exists.");
      } else {
        setFailure(result.message || addressText.saveFailed);
      }
    }, wait);
    return () => clearTimeout(timer);
  }, [fetcher.state, fetcher.data, onClose]);

  const editing = address !== null;
  const title = editing ? "Edit Address" : "Add New Address";

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !saving) onClose();
      }}
    >
      <DialogContent
        showCloseButton={!saving}
        onEscapeKeyDown={(e) => saving && e.preventDefault()}
        onPointerDownOutside={(e) => saving && e.preventDefault()}
        onInteractOutside={(e) => saving && e.preventDefault()}
        aria-busy={saving}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>All fields are required.</DialogDescription>
        </DialogHeader>
        <form
          method="post"
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (saving) return;
            const form = new FormData(event.currentTarget);
            const parsed = addressSchema.safeParse(formFields(form));
            if (!parsed.success) {
              setErrors(fieldErrors(parsed.error));
              setFailure(null);
              return;
            }
            setPhone(parsed.data.phone);
            setErrors({});
            setFailure(null);
            setSaving(true);
            startedAt.current = Date.now();
            fetcher.submit(form, { method: "post", action: "/addresses" });
          }}
        >
          <input type="hidden" name="intent" value="save" />
          {address ? <input type="hidden" name="addressId" value={address.id} /> : null}
          {failure ? <FormAlert>{failure}</FormAlert> : null}
          <fieldset disabled={saving} className="grid gap-4 disabled:opacity-80">
            <legend className="sr-only">{title}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="address-label">Address type</Label>
                <Select
                  name="label"
                  value={label}
                  onValueChange={(v) => setLabel(v as AddressLabel)}
                  disabled={saving}
                >
                  <SelectTrigger
                    id="address-label"
                    aria-invalid={errors.label ? true : undefined}
                    aria-describedby={errors.label ? errorId("address-label") : undefined}
                  >
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {ADDRESS_LABELS.map((l) => (
                      <SelectItem key={l} value={l}>
                        {l}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FieldError id="address-label" message={errors.label} />
              </div>
              <FormField
                id="address-name"
                name="name"
                label="Full name"
                autoComplete="name"
                required
                defaultValue={address?.name}
                error={errors.name}
              />
            </div>
            <FormField
              id="address-line1"
              name="line1"
              label="Street address"
              autoComplete="address-line1"
              required
              defaultValue={address?.line1}
              error={errors.line1}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id="address-city"
                name="city"
                label="City"
                autoComplete="address-level2"
                required
                value={city}
                onChange={(e) => setCity(e.target.value)}
                error={errors.city}
              />
              <FormField
                id="address-state"
                name="state"
                label="State"
                autoComplete="address-level1"
                required
                value={state}
                onChange={(e) => setState(e.target.value)}
                error={errors.state}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id="address-pin"
                name="postalCode"
                label="PIN code"
                inputMode="numeric"
                autoComplete="postal-code"
                required
                value={postalCode}
                onChange={(e) => pinTyped(digitsOnly(e.target.value, PIN_DIGITS))}
                error={errors.postalCode}
              />
              <FormField
                id="address-country"
                name="country"
                label="Country"
                autoComplete="country-name"
                required
                defaultValue={address?.country ?? DEFAULT_COUNTRY}
                error={errors.country}
              />
            </div>
            <FormField
              id="address-phone"
              name="phone"
              type="tel"
              label="Phone"
              inputMode="tel"
              autoComplete="tel"
              placeholder="10-digit mobile number"
              required
              value={phone}
              // "+91 98765 43210" is typed as written and shown as its 10 digits once left; keeping
              // only digits while typing made it 9198765432 (app/rules/phone.ts).
              onChange={(e) => setPhone(mobileInput(e.target.value))}
              onBlur={() => setPhone((typed) => indianMobile(typed) ?? typed)}
              error={errors.phone}
            />
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={saving} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? (
                <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
              ) : null}
              {saving ? "Saving…" : "Save Address"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
