// What the driver's page asks for at pickup and drop-off (docs/product.md, "Proof of condition"):
// whether the four photos are required before Loaded and before Completed, and the checklist's
// items, one a line.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { ProofSettings } from '#shared/proof';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Spinner, Textarea } from '../../../components/ui';
import { errorText } from '../api';

const KEY = [pathOf(portalApi['proof-settings'])] as const;

export function ProofSettingsCard() {
  const settings = useQuery({ queryKey: KEY, queryFn: () => call(portalApi['proof-settings'].$get) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Photos and condition</CardTitle>
        <CardDescription>
          At pickup and drop-off the driver’s page asks for photos of the four sides, the checklist and the customer’s signature.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isLoading ? (
          <Spinner label="Loading your photo settings" />
        ) : settings.data ? (
          <ProofSettingsForm settings={settings.data} />
        ) : (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your photo settings. Please reload the page.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function ProofSettingsForm({ settings }: { settings: ProofSettings }) {
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState(settings.photosBeforeLoaded);
  const [completed, setCompleted] = useState(settings.photosBeforeCompleted);
  const [checklist, setChecklist] = useState(settings.checklist.join('\n'));
  const save = useMutation({
    mutationFn: () =>
      call(portalApi['proof-settings'].$put, {
        json: {
          photosBeforeLoaded: loaded,
          photosBeforeCompleted: completed,
          checklist: checklist
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(KEY, saved);
      toast({ title: 'Photo settings saved' });
    },
    onError: (error) => toast({ title: 'Error saving photo settings', description: errorText(error), variant: 'destructive' }),
  });
  return (
    <form
      noValidate
      aria-label="Photo settings"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <label className="flex items-center gap-3 text-sm">
        <input type="checkbox" className="size-4" checked={loaded} onChange={(event) => setLoaded(event.target.checked)} />
        Require the four pickup photos before Loaded
      </label>
      <label className="flex items-center gap-3 text-sm">
        <input type="checkbox" className="size-4" checked={completed} onChange={(event) => setCompleted(event.target.checked)} />
        Require the four drop-off photos before Completed
      </label>
      <Field label="Checklist" hint="One item a line, at most 12.">
        <Textarea rows={4} value={checklist} onChange={(event) => setChecklist(event.target.value)} />
      </Field>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Photo Settings'}
        </Button>
      </div>
    </form>
  );
}
