ALTER TABLE `companies` ADD `booking_sms_verified_at` text;
--> statement-breakpoint
ALTER TABLE `companies` ADD `booking_sms_code_hash` text;
--> statement-breakpoint
ALTER TABLE `companies` ADD `booking_sms_code_to` text;
--> statement-breakpoint
ALTER TABLE `companies` ADD `booking_sms_code_expires_at` text;
--> statement-breakpoint
ALTER TABLE `companies` ADD `booking_sms_code_tries` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE `verification_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`channel` text NOT NULL,
	`destination` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `verification_sends_company` ON `verification_sends` (`company_id`,`channel`,`created_at`);
--> statement-breakpoint
CREATE INDEX `verification_sends_destination` ON `verification_sends` (`destination`,`created_at`);
--> statement-breakpoint
CREATE INDEX `verification_sends_created` ON `verification_sends` (`created_at`);
