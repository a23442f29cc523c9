package event

// Fields are the fields (their JSON names) one variant of a union needs
// and the ones it may give, beside its discriminator: a decision type's
// payload, a canvas change's or a fork change's type. A variant holds no
// other fields. The domain refuses a variant without its required fields,
// and the API's and the MCP tools' schemas describe each variant from the
// same table.
type Fields struct {
	Required []string
	Optional []string
}

// All is the required fields, then the optional ones.
func (f Fields) All() []string {
	return append(append([]string{}, f.Required...), f.Optional...)
}
