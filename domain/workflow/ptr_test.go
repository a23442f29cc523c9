package workflow

func ptr[T any](v T) *T { return &v }
