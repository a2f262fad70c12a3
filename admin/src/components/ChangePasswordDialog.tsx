// Change Password (the portal's account menu): the current password, then a new one checked by
// the shared rule before submitting. Every other session ends; this browser stays signed in.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { ApiRequestError, call, portalApi } from '#shared/api-client';
import { changePasswordSchema, PASSWORD_HINT, type ChangePasswordRequest } from '#shared/account-schemas';
import { storeAuthSession } from '../lib/auth';
import { toast } from './toast';
import { Button, Dialog, Field, Input } from './ui';

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordRequest>({ resolver: zodResolver(changePasswordSchema), defaultValues: { currentPassword: '', newPassword: '' } });
  const change = useMutation({
    mutationFn: (body: ChangePasswordRequest) => call(portalApi['change-password'].$post, { json: body }),
    onSuccess: (response) => {
      // The old token stopped working with every other session; this browser keeps the new one.
      storeAuthSession(response.authToken, null);
      reset();
      onOpenChange(false);
      toast({ title: 'Password changed', description: 'Every other session has been signed out.' });
    },
    onError: (error) => {
      const fields = error instanceof ApiRequestError ? error.fields : undefined;
      if (fields?.currentPassword) setError('currentPassword', { message: fields.currentPassword });
      if (fields?.newPassword) setError('newPassword', { message: fields.newPassword });
      if (!fields)
        toast({
          title: 'Error changing password',
          description: error instanceof ApiRequestError ? error.serverMessage : error.message,
          variant: 'destructive',
        });
    },
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Change Password" description="Changing your password signs you out on every other device.">
      <form noValidate onSubmit={handleSubmit((values) => change.mutate(values))} className="grid gap-4">
        <Field label="Current password" error={errors.currentPassword?.message}>
          <Input type="password" autoComplete="current-password" {...register('currentPassword')} />
        </Field>
        <Field label="New password" hint={PASSWORD_HINT} error={errors.newPassword?.message}>
          <Input type="password" autoComplete="new-password" {...register('newPassword')} />
        </Field>
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Saving...' : 'Change Password'}
        </Button>
      </form>
    </Dialog>
  );
}
