//! `#[derive(Canonical)]` for `fixstep-runtime`'s `hash::Canonical` trait.
//!
//! The derived encoding writes a struct's fields in declaration order, and an enum's variant
//! index (a `u32`, in declaration order) followed by that variant's fields, with nothing
//! between them. Every type parameter gets a `Canonical` bound. Reordering fields or variants
//! therefore changes the state hash, which is what a golden test should notice.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Index, parse_macro_input, parse_quote};

/// Derives `fixstep_runtime::hash::Canonical`.
#[proc_macro_derive(Canonical)]
pub fn derive_canonical(input: TokenStream) -> TokenStream {
    let mut input = parse_macro_input!(input as DeriveInput);
    let name = input.ident.clone();
    for param in input.generics.type_params_mut() {
        param.bounds.push(parse_quote!(::fixstep_runtime::hash::Canonical));
    }
    let body = match &input.data {
        Data::Struct(data) => {
            let (pattern, writes) = destructure(&data.fields);
            quote! { let Self #pattern = self; #writes }
        }
        Data::Enum(data) => {
            let arms = data.variants.iter().zip(0u32..).map(|(variant, index)| {
                let ident = &variant.ident;
                let (pattern, writes) = destructure(&variant.fields);
                quote! {
                    Self::#ident #pattern => {
                        out.write_u32(#index);
                        #writes
                    }
                }
            });
            quote! { match self { #(#arms)* } }
        }
        Data::Union(_) => {
            return syn::Error::new_spanned(&input.ident, "a union has no canonical encoding")
                .to_compile_error()
                .into();
        }
    };
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics ::fixstep_runtime::hash::Canonical for #name #type_generics #where_clause {
            #[inline]
            fn write_canonical(&self, out: &mut ::fixstep_runtime::hash::CanonicalBytes) {
                // A unit struct or enum writes nothing of its own.
                let _ = &out;
                #body
            }
        }
    }
    .into()
}

/// A pattern binding every field of `fields` by reference, and the writes of those bindings in
/// declaration order.
fn destructure(fields: &Fields) -> (Tokens, Tokens) {
    match fields {
        Fields::Named(named) => {
            let idents: Vec<_> = named.named.iter().filter_map(|f| f.ident.clone()).collect();
            (
                quote! { { #(#idents),* } },
                quote! { #( ::fixstep_runtime::hash::Canonical::write_canonical(#idents, out); )* },
            )
        }
        Fields::Unnamed(unnamed) => {
            let count = unnamed.unnamed.len();
            let indices = (0..count).map(Index::from);
            let bindings: Vec<_> = (0..count).map(|i| format_ident!("field_{}", i)).collect();
            (
                quote! { { #(#indices: #bindings),* } },
                quote! { #( ::fixstep_runtime::hash::Canonical::write_canonical(#bindings, out); )* },
            )
        }
        Fields::Unit => (quote! {}, quote! {}),
    }
}
