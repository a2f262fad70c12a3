// Form controls of the quote form: a visible label bound to each control, the field's message
// under it (aria-describedby, aria-invalid), 44 px touch targets, native selects (no popups
// that would need a portal outside the shadow root).
import type { ReactNode } from 'react';
import { Icon } from './icons';
import type { Option } from './quote-setup';

export const controlClass =
  'block h-11 w-full rounded-lg border border-slate-400 bg-white px-3 text-base text-slate-900 shadow-xs ' +
  'placeholder:text-slate-500 focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-primary focus-visible:outline-none ' +
  'aria-invalid:border-red-700';

const labelClass = 'mb-1.5 block text-sm font-medium text-slate-800';

export const focusRing = 'focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-offset-2 focus-visible:outline-none';

interface FieldProps {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}

function Field({ id, label, error, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

/** Props every described control needs: the message id only while there is a message. */
export const describedBy = (id: string, error?: string) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
});

interface PostcodeFieldProps {
  id: string;
  name: string;
  label: string;
  placeholder: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** A button beside the input (Pickup Location's 'Use my location'). */
  action?: ReactNode;
  /** A note under the input, e.g. why the location could not be used. */
  note?: ReactNode;
  /** The Registration field reuses this one: a plate is no postcode to the browser's autofill. */
  autoComplete?: string;
}

/** A short code in capitals: a postcode, or the vehicle's registration. */
export function PostcodeField({
  id,
  name,
  label,
  placeholder,
  value,
  error,
  onChange,
  onBlur,
  action,
  note,
  autoComplete = 'postal-code',
}: PostcodeFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      <div className="flex gap-2">
        <input
          id={id}
          name={name}
          type="text"
          inputMode="text"
          autoCapitalize="characters"
          autoComplete={autoComplete}
          spellCheck={false}
          maxLength={16}
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          className={`${controlClass} min-w-0 uppercase placeholder:normal-case`}
          {...describedBy(id, error)}
        />
        {action}
      </div>
      {note}
    </Field>
  );
}

interface SelectFieldProps {
  id: string;
  name: string;
  label: string;
  placeholder: string;
  options: readonly Option[];
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

export function SelectField({ id, name, label, placeholder, options, value, error, onChange }: SelectFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      <NativeSelect id={id} name={name} value={value} onChange={onChange} {...describedBy(id, error)}>
        <option value="" disabled>
          {placeholder}
        </option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

interface NativeSelectProps {
  id: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export function NativeSelect({ onChange, children, ...props }: NativeSelectProps) {
  return (
    <div className="relative">
      <select {...props} onChange={(event) => onChange(event.target.value)} className={`${controlClass} cursor-pointer appearance-none pr-9`}>
        {children}
      </select>
      <Icon name="chevronDown" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-600" />
    </div>
  );
}

interface StepperProps {
  id: string;
  label: string;
  value: number;
  max: number;
  error?: string;
  onChange: (value: number) => void;
}

/** docs/product.md §2: a − / + stepper from 0 to the company's passenger limit. */
export function PassengerStepper({ id, label, value, max, error, onChange }: StepperProps) {
  const button =
    `grid size-11 shrink-0 place-items-center rounded-lg border border-slate-400 bg-white text-slate-900 ` +
    `hover:bg-slate-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-40 ${focusRing}`;
  // aria-disabled rather than disabled: a disabled button drops keyboard focus at the limit.
  const step = (next: number) => {
    if (next >= 0 && next <= max) onChange(next);
  };
  return (
    <div>
      <span id={`${id}-label`} className={labelClass}>
        {label}
      </span>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's default min-inline-size (min-content) breaks this flex/grid layout on a phone; role=group is the same to assistive technology */}
      <div role="group" aria-labelledby={`${id}-label`} {...describedBy(id, error)} className="flex items-center gap-3">
        {/* Named by what they do: a screen reader says "Fewer passengers", never "minus". */}
        <button type="button" className={button} aria-label="Fewer passengers" aria-disabled={value <= 0} onClick={() => step(value - 1)}>
          <Icon name="minus" className="size-4" />
        </button>
        <output id={id} aria-live="polite" className="min-w-8 text-center text-lg font-semibold text-slate-900">
          {value}
        </output>
        <button type="button" className={button} aria-label="More passengers" aria-disabled={value >= max} onClick={() => step(value + 1)}>
          <Icon name="plus" className="size-4" />
        </button>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
