CREATE TABLE `trade_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`billing_address` text,
	`email` text NOT NULL,
	`vat_number` text,
	`payment_terms_days` integer DEFAULT 30 NOT NULL,
	`credit_limit_pence` integer,
	`po_required` integer DEFAULT false NOT NULL,
	`account_code` text NOT NULL,
	`delivery_note_prices` integer DEFAULT true NOT NULL,
	`rate_card` text,
	`xero_contact_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trade_accounts_company` ON `trade_accounts` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `account_quotes` (
	`quote_id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `trade_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `account_jobs` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`po_number` text,
	`over_limit` integer DEFAULT false NOT NULL,
	`invoice_id` integer,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `trade_accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_jobs_account` ON `account_jobs` (`account_id`,`invoice_id`);--> statement-breakpoint
CREATE TABLE `account_invoices` (
	`document_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`period` text NOT NULL,
	`due_date` text NOT NULL,
	`paid_pence` integer DEFAULT 0 NOT NULL,
	`xero_invoice_id` text,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `trade_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_invoices_account` ON `account_invoices` (`account_id`,`document_id`);--> statement-breakpoint
CREATE INDEX `account_invoices_company` ON `account_invoices` (`company_id`,`document_id`);--> statement-breakpoint
CREATE TABLE `account_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`document_id` integer NOT NULL,
	`amount_pence` integer NOT NULL,
	`paid_on` text NOT NULL,
	`reference` text,
	`xero_payment_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `trade_accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`document_id`) REFERENCES `account_invoices`(`document_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_payments_invoice` ON `account_payments` (`document_id`);--> statement-breakpoint
CREATE INDEX `account_payments_company` ON `account_payments` (`company_id`,`id`);--> statement-breakpoint
CREATE TABLE `xero_credit_notes` (
	`document_id` integer PRIMARY KEY NOT NULL,
	`xero_id` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `document_id` integer REFERENCES documents(id);
