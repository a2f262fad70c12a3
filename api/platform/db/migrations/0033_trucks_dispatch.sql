-- The team's trucks, what each vehicle type needs of a truck, jobs assigned to a person and a
-- truck, and jobs for later (a booked slot, its time window and its reminder), with the company's
-- limits on later bookings (docs/product.md §23).
CREATE TABLE `trucks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`max_weight_kg` integer NOT NULL,
	`ev_allowed` integer DEFAULT true NOT NULL,
	`default_driver_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`default_driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `trucks_company` ON `trucks` (`company_id`);--> statement-breakpoint
CREATE TABLE `vehicle_type_carriage` (
	`vehicle_type_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`truck_kinds` text DEFAULT '[]' NOT NULL,
	`weight_kg` integer,
	`electric` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`vehicle_type_id`) REFERENCES `vehicle_types`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `assigned_user_id` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `bookings` ADD `truck_id` integer REFERENCES trucks(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `bookings` ADD `assigned_at` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `truck_override_by` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `truck_override_at` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `scheduled_for` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `window_minutes` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `reminder_at` text;--> statement-breakpoint
CREATE INDEX `bookings_assigned` ON `bookings` (`assigned_user_id`,`status`);--> statement-breakpoint
CREATE INDEX `bookings_company_scheduled` ON `bookings` (`company_id`,`scheduled_for`);--> statement-breakpoint
ALTER TABLE `users` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `later_days_ahead` integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `later_jobs_per_hour` integer DEFAULT 2 NOT NULL;
