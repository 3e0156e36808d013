"""The submission side of the portal: accepting submissions, running their jobs, storing results."""
