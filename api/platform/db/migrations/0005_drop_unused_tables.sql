DROP TABLE `problem_types`;--> statement-breakpoint
DROP TABLE `sessions`;