package identity_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/towow/towow/identity"
)

func ExampleSigner_Mint() {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	s := identity.NewSigner(key)

	tok, err := s.Mint("alice", "Alice", identity.AudienceAPI, time.Hour)
	if err != nil {
		panic(err)
	}
	p, err := s.Verifier(identity.AudienceAPI, identity.DefaultSkew).Verify(context.Background(), tok)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Actor(), p.Name)
	// Output: user:alice Alice
}
