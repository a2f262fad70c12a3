// The Branding form's state, held by the portal rather than the tab: the Preview button saves
// it too (SPEC.md §2), and unsaved edits survive switching tabs.
import { useEffect, useMemo, useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useReportUnsaved } from '../../lib/unsaved';
import { companyUpdateSchema, type CompanyUpdate } from '../../../../shared/schemas';
import type { Company } from '../../../../shared/types';
import { toast } from '../../components/toast';
import { asInput, parseWith } from '../../lib/forms';
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
  form: UseFormReturn<BrandingForm>;
  appliedPreset: string | null;
  setAppliedPreset: (name: string | null) => void;
  /** Validates and saves; resolves true when the server has the form's values. */
  save: (options?: { quiet?: boolean }) => Promise<boolean>;
  saving: boolean;
}

export function useBrandingEditor(company: Company | undefined): BrandingEditor {
  const initial = useMemo(() => (company ? brandingValues(company) : undefined), [company]);
  // A contact or custom URL save refreshes the company: what is typed here and not saved stays.
  const form = useForm<BrandingForm>({ values: initial?.values, resetOptions: { keepDirtyValues: true } });
  useReportUnsaved('branding', form.formState.isDirty);
  const [appliedPreset, setAppliedPreset] = useState<string | null>(null);
  const saveCompany = useSaveCompany();

  useEffect(() => {
    if (initial) setAppliedPreset(initial.applied);
  }, [initial]);

  const save = async ({ quiet = false } = {}): Promise<boolean> => {
    const values = form.getValues();
    if (!hasDisplayOption(values)) {
      if (!quiet) {
        toast({
          title: 'Display option required',
          description: 'Please select at least one display option before saving.',
          variant: 'destructive',
        });
      }
      return false;
    }
    // A stored logo comes back as a URL; only a new upload (data URL) or a removal is sent.
    const { logo, priceRoundingMultiple, ...rest } = values;
    const body: CompanyUpdate = { ...rest, priceRoundingMultiple: Number(priceRoundingMultiple) };
    if (form.formState.dirtyFields.logo || logo?.startsWith('data:')) body.logo = logo;
    const parsed = parseWith(companyUpdateSchema, body);
    form.clearErrors();
    if (!parsed.ok) {
      for (const [field, message] of Object.entries(parsed.errors)) form.setError(field as keyof BrandingForm, { message });
      if (!quiet) toast({ title: 'Error updating company settings', description: Object.values(parsed.errors)[0], variant: 'destructive' });
      return false;
    }
    try {
      await saveCompany.mutateAsync(parsed.data);
      if (!quiet) toast({ title: 'Company settings updated successfully' });
      return true;
    } catch (error) {
      if (!quiet) toast({ title: 'Error updating company settings', description: errorText(error as Error), variant: 'destructive' });
      return false;
    }
  };

  return { form, appliedPreset, setAppliedPreset, save, saving: saveCompany.isPending };
}
