// Branding: how the customer quote page looks and what it shows (docs/product.md §2, §4, §5).
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { ChevronDown, ImagePlus, Trash2 } from 'lucide-react';
import { COLOUR_PRESETS, FEATURE_ICON_LABELS, FEATURE_ICONS, PASSENGER_LIMIT_RANGE } from '#shared/constants';
import { buttonTextContrast, contrastRatio, MIN_CONTRAST, nearestReadablePrimary, nearestReadableText } from '#shared/contrast';
import { HEX_COLOUR, safeColour } from '#shared/patterns';
import { hasContactNumber } from '#shared/share';
import type { Company } from '#shared/types';
import { toast } from '../../components/toast';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Checkbox, Field, Input, Label, Select, Textarea } from '../../components/ui';
import { cn } from '../../lib/cn';
import {
  COLOUR_KEYS,
  LOGO_TYPES,
  logoProblem,
  presetColours,
  roundingLocked,
  setDisplayOption,
  showRoundingChoices,
  type DisplayOptions as DisplayOptionValues,
} from './branding';
import { CustomUrlCard } from './CustomUrlCard';
import { LINKED_FIELDS } from './go-to-field';
import { ShareEmbedCard } from './ShareEmbedCard';
import type { BrandingEditor, BrandingFormApi } from './useBrandingEditor';

const COLOUR_LABELS: Record<(typeof COLOUR_KEYS)[number], string> = {
  primaryColour: 'Primary Colour',
  secondaryColour: 'Secondary Colour',
  accentColour: 'Accent Colour',
  backgroundColour: 'Background Colour',
  textColour: 'Text Colour',
};

function LogoUpload({ form }: { form: BrandingFormApi }) {
  const logo = useWatch({ control: form.control, name: 'logo' });
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const refused = logoProblem(file);
    setProblem(refused);
    if (refused) return;
    const reader = new FileReader();
    reader.onload = () => {
      form.setValue('logo', String(reader.result), { shouldDirty: true });
      toast({ title: 'Logo uploaded', description: `${file.name} ready to save` });
    };
    reader.onerror = () => setProblem('That file could not be read. Please try another image.');
    reader.readAsDataURL(file);
  };

  return (
    <div className="grid gap-3">
      <Label htmlFor="logo-file">Company Logo</Label>
      <div className="flex flex-wrap items-center gap-4">
        <div className="grid size-20 place-items-center overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
          {logo ? (
            <img src={logo} alt="Company logo preview" className="size-full object-contain" />
          ) : (
            <ImagePlus className="size-8 text-slate-400" aria-hidden="true" />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <input ref={inputRef} id="logo-file" type="file" accept={LOGO_TYPES.join(',')} className="sr-only" aria-describedby={hintId} onChange={onFile} />
          <Button variant="outline" onClick={() => inputRef.current?.click()}>
            <ImagePlus aria-hidden="true" /> {logo ? 'Change Logo' : 'Upload Logo'}
          </Button>
          {logo && (
            <Button variant="ghost" className="text-red-700" onClick={() => form.setValue('logo', null, { shouldDirty: true })}>
              <Trash2 aria-hidden="true" /> Remove Logo
            </Button>
          )}
        </div>
      </div>
      <p id={hintId} className="text-xs text-slate-600">
        PNG, JPG, GIF up to 2MB
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  );
}

interface ContrastWarning {
  key: 'textColour' | 'primaryColour';
  message: string;
  suggestion: string;
}

/** The colour pairs customers must be able to read, and for each one below 4.5:1 the nearest readable colour. */
export function contrastWarnings(colours: Partial<Record<(typeof COLOUR_KEYS)[number], string>>): ContrastWarning[] {
  const { textColour = '', backgroundColour = '', primaryColour = '' } = colours;
  const warnings: ContrastWarning[] = [];
  const ratio = (value: number) => `${Math.floor(value * 10) / 10}:1`;
  if (HEX_COLOUR.test(textColour) && HEX_COLOUR.test(backgroundColour)) {
    const contrast = contrastRatio(textColour, backgroundColour);
    if (contrast < MIN_CONTRAST) {
      warnings.push({
        key: 'textColour',
        message: `Text on the background is hard to read (contrast ${ratio(contrast)}, at least 4.5:1 needed).`,
        suggestion: nearestReadableText(textColour, backgroundColour),
      });
    }
  }
  if (HEX_COLOUR.test(primaryColour)) {
    const contrast = buttonTextContrast(primaryColour);
    if (contrast < MIN_CONTRAST) {
      warnings.push({
        key: 'primaryColour',
        message: `Button text on the primary colour is hard to read (contrast ${ratio(contrast)}, at least 4.5:1 needed).`,
        suggestion: nearestReadablePrimary(primaryColour),
      });
    }
  }
  return warnings;
}

export function ColourTheme({ editor }: { editor: Pick<BrandingEditor, 'form' | 'appliedPreset' | 'setAppliedPreset'> }) {
  const { form, appliedPreset, setAppliedPreset } = editor;
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const colours = useWatch({ control: form.control, name: [...COLOUR_KEYS] });

  const applyPreset = (name: string) => {
    const preset = COLOUR_PRESETS.find((p) => p.name === name);
    if (!preset) return;
    for (const [key, value] of Object.entries(presetColours(preset))) {
      form.setValue(key as (typeof COLOUR_KEYS)[number], value, { shouldDirty: true });
    }
    setAppliedPreset(name);
  };

  const warnings = contrastWarnings(Object.fromEntries(COLOUR_KEYS.map((key, i) => [key, colours[i]])));

  const toggleAdvanced = () => {
    // Custom colours no longer match a preset exactly, so the mark goes as soon as they open.
    if (!advancedOpen) setAppliedPreset(null);
    setAdvancedOpen(!advancedOpen);
  };

  return (
    <div className="grid gap-4">
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's default min-inline-size (min-content) breaks this flex/grid layout on a phone; role=group is the same to assistive technology */}
      <div role="group" aria-label="Colour theme presets" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {COLOUR_PRESETS.map((preset) => {
          const applied = preset.name === appliedPreset;
          return (
            <button
              key={preset.name}
              type="button"
              aria-pressed={applied}
              onClick={() => applyPreset(preset.name)}
              className={cn(
                'flex items-center justify-between gap-2 rounded-lg border bg-white p-3 text-left text-sm font-medium',
                applied ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200 hover:border-slate-400',
              )}
            >
              <span className="flex items-center gap-2">
                <span className="flex" aria-hidden="true">
                  {COLOUR_KEYS.slice(0, 3).map((key, i) => (
                    <span
                      key={key}
                      className={cn('size-5 rounded-full border border-white shadow-sm', i > 0 && '-ml-1.5')}
                      style={{ background: preset[key] }}
                    />
                  ))}
                </span>
                {preset.name}
              </span>
              {applied && <Badge tone="success">APPLIED</Badge>}
            </button>
          );
        })}
      </div>
      <div>
        <Button variant="ghost" aria-expanded={advancedOpen} aria-controls="advanced-colours" onClick={toggleAdvanced} className="-ml-2">
          <ChevronDown aria-hidden="true" className={cn('transition-transform', advancedOpen && 'rotate-180')} /> Advanced Colours
        </Button>
      </div>
      <div aria-live="polite" className="grid gap-2 empty:hidden">
        {warnings.map((warning) => (
          <div key={warning.key} className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <p className="flex-1">
              {warning.message} Nearest readable {COLOUR_LABELS[warning.key].toLowerCase()}: {warning.suggestion}.
            </p>
            <span className="size-6 shrink-0 rounded border border-amber-300" style={{ background: warning.suggestion }} aria-hidden="true" />
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                form.setValue(warning.key, warning.suggestion, { shouldDirty: true });
                setAppliedPreset(null);
              }}
            >
              Use {warning.suggestion}
            </Button>
          </div>
        ))}
      </div>
      {advancedOpen && (
        <div id="advanced-colours" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {COLOUR_KEYS.map((key, index) => (
            <div key={key} className="grid gap-1.5">
              <Label htmlFor={`${key}-picker`}>{COLOUR_LABELS[key]}</Label>
              <div className="flex gap-2">
                <input
                  id={`${key}-picker`}
                  type="color"
                  value={safeColour(colours[index], '#000000')}
                  onChange={(e) => form.setValue(key, e.target.value.toUpperCase(), { shouldDirty: true })}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1"
                />
                <Input
                  aria-label={`${COLOUR_LABELS[key]} hex code`}
                  aria-invalid={form.formState.errors[key] ? true : undefined}
                  maxLength={7}
                  {...form.register(key)}
                />
              </div>
              {form.formState.errors[key] && <p className="text-sm text-red-700">{form.formState.errors[key]?.message}</p>}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

export function DisplayOptions({ form }: { form: BrandingFormApi }) {
  const [showPriceBreakdown, enablePriceRounding] = useWatch({ control: form.control, name: ['showPriceBreakdown', 'enablePriceRounding'] });
  const options: DisplayOptionValues = { showPriceBreakdown, enablePriceRounding };

  const change = (option: keyof DisplayOptionValues, on: boolean) => {
    const next = setDisplayOption(options, option, on);
    form.setValue('showPriceBreakdown', next.showPriceBreakdown, { shouldDirty: true });
    form.setValue('enablePriceRounding', next.enablePriceRounding, { shouldDirty: true });
  };

  return (
    <fieldset className="grid gap-4">
      <legend className="mb-2 text-sm font-semibold">Display Options</legend>
      <div className="flex items-start gap-3">
        <Checkbox
          id="showPriceBreakdown"
          checked={showPriceBreakdown}
          onCheckedChange={(c) => change('showPriceBreakdown', c === true)}
          aria-describedby="showPriceBreakdown-hint"
        />
        <div className="grid gap-0.5">
          <Label htmlFor="showPriceBreakdown">Show price breakdown</Label>
          <p id="showPriceBreakdown-hint" className="text-xs text-slate-600">
            Itemise the call-out fee, distance, labour and extras under the total.
          </p>
        </div>
      </div>
      <div className="flex items-start gap-3">
        <Checkbox
          id="enablePriceRounding"
          checked={enablePriceRounding}
          disabled={roundingLocked(options)}
          onCheckedChange={(c) => change('enablePriceRounding', c === true)}
          aria-describedby="enablePriceRounding-hint"
        />
        <div className="grid gap-0.5">
          <Label htmlFor="enablePriceRounding" className={cn(roundingLocked(options) && 'text-slate-500')}>
            Round prices up
          </Label>
          <p id="enablePriceRounding-hint" className="text-xs text-slate-600">
            Show a single rounded total. Not available while the price breakdown is shown.
          </p>
        </div>
      </div>
      {showRoundingChoices(options) && (
        <Controller
          control={form.control}
          name="priceRoundingMultiple"
          render={({ field }) => (
            <div role="radiogroup" aria-label="Round up to the nearest" className="ml-8 flex gap-3">
              {(['5', '10'] as const).map((multiple) => (
                <label
                  key={multiple}
                  className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input type="radio" name={field.name} value={multiple} checked={field.value === multiple} onChange={() => field.onChange(multiple)} />
                  Nearest £{multiple}
                </label>
              ))}
            </div>
          )}
        />
      )}
      <Controller
        control={form.control}
        name="showPriceDisclaimer"
        render={({ field }) => (
          <div className="flex items-start gap-3">
            <Checkbox id="showPriceDisclaimer" checked={field.value} onCheckedChange={(c) => field.onChange(c === true)} />
            <Label htmlFor="showPriceDisclaimer">Show a disclaimer that the quoted price is an estimate</Label>
          </div>
        )}
      />
    </fieldset>
  );
}

function BooleanField({ form, name, label }: { form: BrandingFormApi; name: 'showServiceArea' | 'showFeatures'; label: string }) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <div className="flex items-center gap-3">
          <Checkbox id={name} checked={field.value} onCheckedChange={(c) => field.onChange(c === true)} />
          <Label htmlFor={name}>{label}</Label>
        </div>
      )}
    />
  );
}

export function BrandingTab({ editor, company }: { editor: BrandingEditor; company: Company }) {
  const { form } = editor;
  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <div className="grid gap-6">
      <ShareEmbedCard savedSlug={company.customSlug} hasNumber={hasContactNumber(company)} withChecklist={false} />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void editor.save();
        }}
        className="grid gap-6"
      >
        <Card>
          <CardHeader>
            <CardTitle>Business Details</CardTitle>
            <CardDescription>Shown in the banner at the top of your quote page.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <LogoUpload form={form} />
            <Field label="Company Name" error={errors.name?.message}>
              <Input autoComplete="organization" {...register('name')} />
            </Field>
            <Field label="Company Description" error={errors.companyDescription?.message} hint="One or two lines, e.g. your area and hours">
              <Textarea rows={2} {...register('companyDescription')} />
            </Field>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Colour Theme</CardTitle>
            <CardDescription>Pick a preset or set your own colours under Advanced Colours.</CardDescription>
          </CardHeader>
          <CardContent>
            <ColourTheme editor={editor} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Quote Display</CardTitle>
            <CardDescription>What customers see with their price.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <DisplayOptions form={form} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Passenger limit" hint={`${PASSENGER_LIMIT_RANGE.min} to ${PASSENGER_LIMIT_RANGE.max}`} error={errors.passengerLimit?.message}>
                <Input
                  type="number"
                  inputMode="numeric"
                  min={PASSENGER_LIMIT_RANGE.min}
                  max={PASSENGER_LIMIT_RANGE.max}
                  step={1}
                  {...register('passengerLimit')}
                />
              </Field>
              <Field label="Price per passenger (£)" error={errors.pricePerPassenger?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} {...register('pricePerPassenger')} />
              </Field>
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Service Area</CardTitle>
            <CardDescription>Pickups farther than your radius from your base add the extra fee once.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="Base postcode" error={errors.basePostcode?.message}>
                <Input id={LINKED_FIELDS.basePostcode.id} autoComplete="postal-code" placeholder="M1 1AA" className="uppercase" {...register('basePostcode')} />
              </Field>
              <Field label="Service radius (miles)" error={errors.serviceRadius?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} {...register('serviceRadius')} />
              </Field>
              <Field label="Extra radius fee (£)" error={errors.extraRadiusFee?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} {...register('extraRadiusFee')} />
              </Field>
            </div>
            <BooleanField form={form} name="showServiceArea" label="Show my service area on the quote page" />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Feature Highlights</CardTitle>
            <CardDescription>Three short selling points shown on your quote page.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <BooleanField form={form} name="showFeatures" label="Show feature highlights" />
            {([1, 2, 3] as const).map((n) => (
              <fieldset key={n} className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-[1fr_10rem]">
                <legend className="px-1 text-sm font-semibold">Feature {n}</legend>
                <Field label={`Feature ${n} title`} error={errors[`feature${n}Title`]?.message}>
                  <Input {...register(`feature${n}Title`)} />
                </Field>
                <Field label={`Feature ${n} icon`}>
                  <Select {...register(`feature${n}Icon`)}>
                    {FEATURE_ICONS.map((icon) => (
                      <option key={icon} value={icon}>
                        {FEATURE_ICON_LABELS[icon]}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field label={`Feature ${n} description`} error={errors[`feature${n}Description`]?.message} className="sm:col-span-2">
                  <Input {...register(`feature${n}Description`)} />
                </Field>
              </fieldset>
            ))}
          </CardContent>
        </Card>

        <div className="sticky bottom-0 z-10 -mx-1 flex justify-end border-t border-slate-200 bg-slate-50/95 px-1 py-3 backdrop-blur">
          <Button type="submit" disabled={editor.saving}>
            {editor.saving ? 'Saving...' : 'Save Branding'}
          </Button>
        </div>
      </form>

      <CustomUrlCard savedSlug={company.customSlug} hasNumber={hasContactNumber(company)} />
    </div>
  );
}
