import { errorId, FormField } from "./form-field";
import { PasswordInput } from "./password-input";

/**
 * A new password and its confirmation (sign-up and password reset). While the two differ, the
 * form shows the mismatch once above the fields, so the confirmation keeps no message of its own.
 */
export function NewPasswordFields({
  ids,
  labels,
  errors,
  mismatch,
}: {
  ids: { password: string; confirm: string };
  labels: { password: string; confirm: string };
  errors: { password?: string; confirmPassword?: string };
  mismatch: boolean;
}) {
  const fields = [
    { id: ids.password, name: "password", label: labels.password, error: errors.password },
    {
      id: ids.confirm,
      name: "confirmPassword",
      label: labels.confirm,
      error: mismatch ? undefined : errors.confirmPassword,
      invalid: Boolean(errors.confirmPassword),
    },
  ];
  return fields.map(({ id, name, label, error, invalid = Boolean(error) }) => (
    <FormField key={id} id={id} label={label} error={error}>
      <PasswordInput
        id={id}
        name={name}
        autoComplete="new-password"
        required
        aria-invalid={invalid ? true : undefined}
        aria-describedby={error ? errorId(id) : undefined}
      />
    </FormField>
  ));
}
