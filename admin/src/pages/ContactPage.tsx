// Contact & Support (docs/product.md §2, §5, §7): no server call; each form opens the operator's mail
// client with a prefilled message to support.
import { useForm, type FieldError, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { ArrowLeft, Lightbulb, Mail } from 'lucide-react';
import type { z } from 'zod';
import { FEATURE_PRIORITIES, SUPPORT_REPLY_HOURS } from '#shared/constants';
import { SUPPORT_EMAIL } from '../lib/support-email';
import { contactFormSchema, featureRequestSchema, type ContactForm, type FeatureRequest } from '#shared/schemas';
import { PortalShell } from '../components/PortalShell';
import { toast } from '../components/toast';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Input,
  Select,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  Textarea,
} from '../components/ui';
import { useAuth } from '../lib/auth';

function mailtoUrl(subject: string, body: string, to = SUPPORT_EMAIL): string {
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/** Hands the message to the mail client, with docs/product.md §8's toasts either way. */
function openMailClient(url: string): void {
  try {
    window.location.href = url;
    toast({ title: 'Email client opened' });
  } catch {
    toast({
      title: 'Error',
      description: `Unable to open email client. Please email us directly at ${SUPPORT_EMAIL}`,
      variant: 'destructive',
    });
  }
}

type Sender = Pick<ContactForm, 'name' | 'email'>;

/** Sends support a message that opens with who it is from, then any extra header lines. */
function mailSupport(subject: string, sender: Sender, headerLines: string[], ...paragraphs: string[]): void {
  const header = [`Name: ${sender.name}`, `Email: ${sender.email}`, ...headerLines].join('\n');
  openMailClient(mailtoUrl(subject, [header, ...paragraphs].join('\n\n')));
}

/** The Name and Email fields both forms open with, prefilled from the signed-in operator. */
function SenderFields({
  name,
  email,
  errors,
}: {
  name: UseFormRegisterReturn;
  email: UseFormRegisterReturn;
  errors: { name?: FieldError; email?: FieldError };
}) {
  return (
    <>
      <Field label="Name" error={errors.name?.message}>
        <Input autoComplete="name" required {...name} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" required {...email} />
      </Field>
    </>
  );
}

function ContactUsForm({ defaults }: { defaults: Sender }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ContactForm>({ resolver: zodResolver(contactFormSchema), defaultValues: { ...defaults, subject: '', message: '' } });
  const onSubmit = handleSubmit((values) => mailSupport(`Contact Request: ${values.subject}`, values, [], values.message));
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
      <SenderFields name={register('name')} email={register('email')} errors={errors} />
      <Field label="Subject" error={errors.subject?.message} className="sm:col-span-2">
        <Input required {...register('subject')} />
      </Field>
      <Field label="Message" error={errors.message?.message} className="sm:col-span-2">
        <Textarea rows={6} required {...register('message')} />
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit">
          <Mail aria-hidden="true" /> Send Message
        </Button>
      </div>
    </form>
  );
}

type FeatureOutput = z.output<typeof featureRequestSchema>;

function FeatureRequestForm({ defaults }: { defaults: Sender }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FeatureRequest, unknown, FeatureOutput>({
    resolver: zodResolver(featureRequestSchema),
    defaultValues: { ...defaults, featureTitle: '', description: '', priority: 'medium' },
  });
  const onSubmit = handleSubmit((values) => {
    const priority = FEATURE_PRIORITIES.find((p) => p.value === values.priority)?.label ?? values.priority;
    mailSupport(`Feature Request: ${values.featureTitle}`, values, [`Priority: ${priority}`], `Feature: ${values.featureTitle}`, values.description);
  });
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
      <SenderFields name={register('name')} email={register('email')} errors={errors} />
      <Field label="Feature Title" error={errors.featureTitle?.message}>
        <Input required {...register('featureTitle')} />
      </Field>
      <Field label="Priority" error={errors.priority?.message}>
        <Select {...register('priority')}>
          {FEATURE_PRIORITIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Description" hint="What would it help you do?" error={errors.description?.message} className="sm:col-span-2">
        <Textarea rows={6} required {...register('description')} />
      </Field>
      <div className="sm:col-span-2">
        <Button type="submit">
          <Lightbulb aria-hidden="true" /> Send Feature Request
        </Button>
      </div>
    </form>
  );
}

export default function ContactPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const defaults = { name: user?.name ?? '', email: user?.email ?? '' };
  return (
    <PortalShell>
      <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
        <title>Contact & Support</title>
        <Button variant="ghost" className="-ml-2" onClick={() => void navigate('/dashboard')}>
          <ArrowLeft aria-hidden="true" /> Back to Driver Portal
        </Button>
        <h1 className="mt-4 text-2xl font-bold tracking-tight">Contact & Support</h1>
        <p className="mt-1 text-slate-600">
          We typically respond within {SUPPORT_REPLY_HOURS} hours. You can also email{' '}
          <a className="font-medium text-brand-700 underline" href={`mailto:${SUPPORT_EMAIL}`}>
            {SUPPORT_EMAIL}
          </a>
          .
        </p>
        <Tabs defaultValue="contact" className="mt-6">
          <TabsList aria-label="Contact options">
            <TabsTrigger value="contact">Contact Us</TabsTrigger>
            <TabsTrigger value="feature">Feature Request</TabsTrigger>
          </TabsList>
          {/* Both stay mounted: switching tabs must not throw away what was typed in the other. */}
          <TabsContent value="contact" forceMount className="data-[state=inactive]:hidden">
            <Card>
              <CardHeader>
                <CardTitle>Contact Us</CardTitle>
                <CardDescription>Questions, problems or billing: tell us what you need.</CardDescription>
              </CardHeader>
              <CardContent>
                <ContactUsForm defaults={defaults} />
              </CardContent>
            </Card>
          </TabsContent>
          <TabsContent value="feature" forceMount className="data-[state=inactive]:hidden">
            <Card>
              <CardHeader>
                <CardTitle>Feature Request</CardTitle>
                <CardDescription>Tell us what would make the platform more useful for your business.</CardDescription>
              </CardHeader>
              <CardContent>
                <FeatureRequestForm defaults={defaults} />
              </CardContent>
            </Card>
          </TabsContent>
        </Tabs>
      </main>
    </PortalShell>
  );
}
