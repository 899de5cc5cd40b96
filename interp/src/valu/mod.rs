//! Vector ALU: VOP1/VOP2/VOPC/VOP3, SDWA and DPP. (Being written: issue 3.)
