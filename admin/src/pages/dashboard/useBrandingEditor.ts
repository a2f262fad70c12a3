// The Branding form's state, held by the portal rather than the tab: the Preview button saves
// it too (docs/product.md §2), and unsaved edits survive switching tabs.
import { useEffect, useMemo, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError } from '../../../../shared/api-client';
import { companyUpdateSchema, type CompanyUpdate } from '../../../../shared/schemas';
import type { Company } from '../../../../shared/types';
import { toast } from '../../components/toast';
import { asInput, SAVED_RESET } from '../../lib/forms';
import { useReportUnsaved } from '../../lib/unsaved';
import { errorText, useSaveCompany } from './api';
import { hasDisplayOption, initialTheme, type ThemeColours } from './branding';

/** The three homepage feature blocks' fields, as the company stores them. */
type FeatureField = `feature${1 | 2 | 3}${'Title' | 'Description' | 'Icon'}`;
const FEATURE_FIELDS = ([1, 2, 3] as const).flatMap((n) => (['Title', 'Description', 'Icon'] as const).map((part): FeatureField => `feature${n}${part}`));

export interface BrandingForm extends ThemeColours, Pick<Company, FeatureField> {
  name: string;
  companyDescription: string;
  /** A data URL for a new upload, the stored logo's URL, or null for no logo. */
  logo: string | null;
  showPriceBreakdown: boolean;
  enablePriceRounding: boolean;
  priceRoundingMultiple: '5' | '10';
  showPriceDisclaimer: boolean;
  showServiceArea: boolean;
  showFeatures: boolean;
  passengerLimit: string;
  pricePerPassenger: string;
  basePostcode: string;
  serviceRadius: string;
  extraRadiusFee: string;
}

/** The company update schema without the fields other cards save (Contact Info, Custom URL). */
const brandingSchema = companyUpdateSchema.omit({ phone: true, whatsapp: true, email: true, preferredContact: true, customDomain: true, customSlug: true });
type BrandingParsed = z.output<typeof brandingSchema>;
export type BrandingFormApi = UseFormReturn<BrandingForm, unknown, BrandingParsed>;

// The form holds one shape of the schema's input, as its inputs show it (numbers as text, the
// rounding as '5' | '10'); the resolver's own type is the schema's widest input.
const brandingResolver = zodResolver(brandingSchema) as Resolver<BrandingForm, unknown, BrandingParsed>;

/** The Branding form, validated on submit by the shared schema as every form of the portal is. */
export const useBrandingForm = (options: Omit<UseFormProps<BrandingForm, unknown, BrandingParsed>, 'resolver'> = {}): BrandingFormApi =>
  useForm<BrandingForm, unknown, BrandingParsed>({ resolver: brandingResolver, ...options });

function brandingValues(company: Company): { values: BrandingForm; applied: string | null } {
  const theme = initialTheme(company);
  return {
    applied: theme.applied,
    values: {
      ...theme.colours,
      name: company.name,
      companyDescription: company.companyDescription ?? '',
      logo: company.logo,
      showPriceBreakdown: company.showPriceBreakdown,
      // Stored data may predate the exclusion rule; breakdown wins, as the checkboxes enforce.
      enablePriceRounding: company.enablePriceRounding && !company.showPriceBreakdown,
      priceRoundingMultiple: company.priceRoundingMultiple === 10 ? '10' : '5',
      showPriceDisclaimer: company.showPriceDisclaimer !== false,
      showServiceArea: company.showServiceArea,
      showFeatures: company.showFeatures,
      passengerLimit: asInput(company.passengerLimit),
      pricePerPassenger: asInput(company.pricePerPassenger),
      basePostcode: company.basePostcode ?? '',
      serviceRadius: asInput(company.serviceRadius),
      extraRadiusFee: asInput(company.extraRadiusFee),
      ...(Object.fromEntries(FEATURE_FIELDS.map((field) => [field, company[field]])) as Pick<Company, FeatureField>),
    },
  };
}

export interface BrandingEditor {
  form: BrandingFormApi;
  appliedPreset: string | null;
  setAppliedPreset: (name: string | null) => void;
  /** Validates and saves; resolves true when the server has the form's values. */
  save: (options?: { quiet?: boolean }) => Promise<boolean>;
  saving: boolean;
}

const DISPLAY_OPTION_REQUIRED = {
  title: 'Display option required',
  description: 'Please select at least one display option before saving.',
  variant: 'destructive',
} as const;

const saveFailed = (description: string | undefined) => ({ title: 'Error updating company settings', description, variant: 'destructive' }) as const;

export function useBrandingEditor(company: Company | undefined): BrandingEditor {
  const initial = useMemo(() => (company ? brandingValues(company) : undefined), [company]);
  // A contact or custom URL save refreshes the company: what is typed here and not saved stays.
  const form = useBrandingForm({ values: initial?.values, resetOptions: { keepDirtyValues: true } });
  useReportUnsaved('branding', form.formState.isDirty);
  const [appliedPreset, setAppliedPreset] = useState<string | null>(null);
  const saveCompany = useSaveCompany();

  useEffect(() => {
    if (initial) setAppliedPreset(initial.applied);
  }, [initial]);

  const send = async (parsed: BrandingParsed, quiet: boolean): Promise<boolean> => {
    // A stored logo comes back as a URL; only a new upload (data URL) or a removal is sent.
    const { logo, ...rest } = parsed;
    const body: CompanyUpdate = form.formState.dirtyFields.logo || logo?.startsWith('data:') ? parsed : rest;
    try {
      const saved = await saveCompany.mutateAsync(body);
      // The saved values become the form's: the stored logo's URL, colours and the postcode as the
      // server wrote them; nothing stays marked unsaved.
      form.reset(brandingValues(saved).values, SAVED_RESET);
      if (!quiet) toast({ title: 'Company settings updated successfully' });
      return true;
    } catch (error) {
      // The server checks what the form cannot (the service radius against the maximum radius).
      const fields = error instanceof ApiRequestError ? error.fields : undefined;
      for (const [field, message] of Object.entries(fields ?? {})) {
        if (field in form.getValues()) form.setError(field as keyof BrandingForm, { message });
      }
      if (!quiet) toast(saveFailed(errorText(error as Error)));
      return false;
    }
  };

  const save = async ({ quiet = false } = {}): Promise<boolean> => {
    if (!hasDisplayOption(form.getValues())) {
      if (!quiet) toast(DISPLAY_OPTION_REQUIRED);
      return false;
    }
    let saved = false;
    await form.handleSubmit(
      async (parsed) => {
        saved = await send(parsed, quiet);
      },
      (errors) => {
        if (!quiet) toast(saveFailed(Object.values(errors)[0]?.message));
      },
    )();
    return saved;
  };

  return { form, appliedPreset, setAppliedPreset, save, saving: saveCompany.isPending };
}
