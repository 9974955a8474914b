
ö
jit_hostileç
comp.2
parameter.1	parameterò
parameter.2	parameterò"
reduce.3reduce††ò∞"
reduce.4reduce††ò∞"
reduce.5reduce††ò∞"
reduce.6reduce††ò∞"
reduce.7reduce††ò∞"
reduce.8reduce††ò∞"
reduce.9reduce††ò	∞#
	reduce.10reduce††ò
∞#
	reduce.11reduce††ò∞#
	reduce.12reduce††ò∞#
	reduce.13reduce††ò∞#
	reduce.14reduce††ò∞#
	reduce.15reduce††ò∞#
	reduce.16reduce††ò∞#
	reduce.17reduce††ò∞#
	reduce.18reduce††ò∞#
	reduce.19reduce††ò∞#
	reduce.20reduce††ò∞#
	reduce.21reduce††ò∞#
	reduce.22reduce††ò∞#
	reduce.23reduce††ò∞#
	reduce.24reduce††ò∞#
	reduce.25reduce††ò∞#
	reduce.26reduce††ò∞#
	reduce.27reduce††ò∞#
	reduce.28reduce††ò∞#
	reduce.29reduce††ò∞#
	reduce.30reduce††ò∞#
	reduce.31reduce††ò∞#
	reduce.32reduce††ò ∞#
	reduce.33reduce††ò!∞#
	reduce.34reduce††ò"∞#
	reduce.35reduce††ò#∞#
	reduce.36reduce††ò$∞#
	reduce.37reduce††ò%∞#
	reduce.38reduce††ò&∞#
	reduce.39reduce††ò'∞#
	reduce.40reduce††ò(∞#
	reduce.41reduce††ò)∞#
	reduce.42reduce††ò*∞(w
comp.1$
parameter.43	parameterò+
constant.44constantò,%
	reduce.45reduce†+†,ò-∞((0