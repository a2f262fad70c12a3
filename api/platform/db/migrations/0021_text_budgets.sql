ALTER TABLE `companies` ADD `text_irish_mobiles` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `budget_at` text;--> statement-breakpoint
CREATE INDEX `mail_outbox_budget_day` ON `mail_outbox` (`budget_at`) WHERE "budget_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `mail_outbox_budget_company` ON `mail_outbox` (`company_id`,`budget_at`) WHERE "budget_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `mail_outbox_budget_to` ON `mail_outbox` (`to`,`budget_at`) WHERE "budget_at" IS NOT NULL;
