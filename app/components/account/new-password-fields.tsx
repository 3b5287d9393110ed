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
  const { password, confirm } = ids;
  const confirmError = mismatch ? undefined : errors.confirmPassword;
  return (
    <>
      <FormField id={password} label={labels.password} error={errors.password}>
        <PasswordInput
          id={password}
          name="password"
          autoComplete="new-password"
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? errorId(password) : undefined}
        />
      </FormField>
      <FormField id={confirm} label={labels.confirm} error={confirmError}>
        <PasswordInput
          id={confirm}
          name="confirmPassword"
          autoComplete="new-password"
          required
          aria-invalid={errors.confirmPassword ? true : undefined}
          aria-describedby={confirmError ? errorId(confirm) : undefined}
        />
      </FormField>
    </>
  );
}
