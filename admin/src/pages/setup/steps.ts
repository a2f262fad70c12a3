// What every set-up step is given: whose progress it keeps, and the way on and back.
export interface StepProps {
  userId: number;
  next: () => void;
  back?: () => void;
  /** The operator came from another step (the step's heading takes the focus). */
  moved?: boolean;
}
